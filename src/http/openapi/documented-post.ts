import { type OpenAPIHono, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../deps.js";
import { InvalidInputError } from "../answer/classify.js";
import { declareAnswers } from "../answer/route-answers.js";
import { OverloadedError } from "../../rpc/errors.js";
import { Bulkhead } from "../../service/bulkhead.js";
import { readBodyText } from "./request-body.js";
import { type DocumentedRoute, type ExampleRequest, honoPath, operationId, responses } from "./documented-route.js";
import { rejection, rpcQueryParam } from "./request-schemas.js";

/** One example of a POST route: the JSON body it sends, and the answer the demo ledger gives. */
export interface ExamplePost extends Omit<ExampleRequest, "params"> {
  readonly requestBody: unknown;
}

export interface DocumentedPost<B extends z.ZodType>
  extends Omit<DocumentedRoute<Record<string, never>, Record<string, never>>, "params" | "query" | "examples"> {
  /** The JSON body, checked after its size and its syntax; other members are ignored. */
  readonly body: B;
  /** Bodies over this many bytes are refused (413) before they are read whole. */
  readonly maxBodyBytes: number;
  /**
   * Requests answered at once; later ones wait, before their body is read,
   * in arrival order but for each client's fair share. Bounds the memory of routes whose work grows with the body.
   */
  readonly concurrency: number;
  /** How long a request may hold its place before it is taken back (see BulkheadLimits.leaseMs); absent: until it answers. */
  readonly placeLeaseMs?: number;
  /** Longest a request waits for its place; past it, 503 `Service overloaded` (see BulkheadLimits.maxWaitMs). */
  readonly maxWaitMs: number;
  /** The client a request is counted for: each gets its fair share of the places (service/bulkhead.ts). */
  clientOf(c: Context<AppEnv>): string;
  readonly examples: Readonly<Record<string, ExamplePost>>;
}

/** What any POST route can answer about its body. */
const BODY_FAILURES = { 400: ["Invalid input"], 413: ["Request body too large"] } as const;

/**
 * Adds a POST route to `app` and to its OpenAPI document from one
 * description, as `documentedGet` does for GETs. The body is checked in
 * this order, the first failure answering with its typed error: its size
 * (`Request body too large`, read from the stream with a limit, whatever
 * the `Content-Type`), then its JSON and shape (`Invalid input`); `rpc` is
 * left to the route's first `c.get("rpc")()`, after the body.
 */
export function documentedPost<B extends z.ZodType>(
  app: OpenAPIHono<AppEnv>,
  route: DocumentedPost<B>,
  handler: (c: Context<AppEnv>, input: { body: z.output<B>; path: string }) => Response | Promise<Response>,
): void {
  const documented = { ...route, errors: { ...BODY_FAILURES, ...route.errors } };
  const answers = responses(documented);
  // One place per request; none is refused for the line's length: a waiter holds only its place (its body
  // is not read yet, so the socket's flow control keeps the bytes at the client), until it waited too long.
  const admission = new Bulkhead(
    "bulk requests",
    {
      maxUnits: route.concurrency,
      maxQueuedUnits: Infinity,
      maxWaitMs: route.maxWaitMs,
      ...(route.placeLeaseMs !== undefined && { leaseMs: route.placeLeaseMs }),
    },
    () => new OverloadedError("bulk requests waited past their deadline for their turn"),
  );
  const requestExamples = Object.fromEntries(
    Object.entries(route.examples).map(([key, example]) => [key, { summary: example.summary, value: example.requestBody }]),
  );
  for (const path of route.paths) {
    app.openAPIRegistry.registerPath({
      method: "post",
      path,
      operationId: `${operationId(path)}Post`,
      tags: [route.tag],
      summary: route.summary,
      ...(route.description === undefined ? {} : { description: route.description }),
      request: {
        ...(route.rpc ? { query: z.object({ rpc: rpcQueryParam }) } : {}),
        body: {
          required: true,
          description: `JSON, at most ${route.maxBodyBytes} bytes; any or no \`Content-Type\`.`,
          content: { "application/json": { schema: route.body, examples: requestExamples } },
        },
      },
      responses: answers,
    });
    const handle = (c: Context<AppEnv>): Promise<Response> => admission.run(1, () => answer(c, path), route.clientOf(c));
    app.post(honoPath(path), declareAnswers(handle, { cache: route.cache, rpc: route.rpc }));
  }

  async function answer(c: Context<AppEnv>, path: string): Promise<Response> {
    const text = await readBodyText(c, route.maxBodyBytes);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new InvalidInputError("request body is not JSON");
    }
    const parsed = route.body.safeParse(json);
    if (!parsed.success) throw rejection(parsed.error);
    return handler(c, { body: parsed.data, path });
  }
}
