import { type OpenAPIHono, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../env.js";
import { InvalidInputError, UnreadBodyOverloadedError } from "../errors.js";
import { declareAnswers } from "./route-answers.js";
import { OverloadedError } from "../../rpc/errors.js";
import { Bulkhead } from "../../service/bulkhead.js";
import { ReceivingBodies } from "../../service/receiving-bodies.js";
import { readBodyText, refuseDeclaredOverLimit } from "./request-body.js";
import { type DocumentedRoute, type ExampleRequest, honoPath, operationId, responses } from "./documented-route.js";
import { rejection, rpcQueryParam, traceQueryParam } from "./request-schemas.js";

/** One example of a POST route: the JSON body it sends, and the answer the demo ledger gives. */
export interface ExamplePost extends Omit<ExampleRequest, "params"> {
  readonly requestBody: unknown;
}

export interface DocumentedPost<B extends z.ZodType> extends Omit<
  DocumentedRoute<Record<string, never>, Record<string, never>>,
  "params" | "query" | "examples"
> {
  /** The JSON body, checked after its size and its syntax; other members are ignored. */
  readonly body: B;
  /** Bodies over this many bytes are refused (413) before they are read whole. */
  readonly maxBodyBytes: number;
  /**
   * Requests answered at once; later ones wait, their body read, in arrival
   * order but for each client's fair share (service/bulkhead.ts). Bounds the
   * memory of routes whose work grows with the body.
   */
  readonly concurrency: number;
  /**
   * Requests receiving their body at once (see ReceivingBodies: one more
   * takes the place of the longest receiving of the client holding most, refused with 503), and
   * requests waiting, their body read, for one of the `concurrency` places
   * (past it, 503 at once). Each holds at most `maxBodyBytes` of body.
   */
  readonly line: { readonly receiving: number; readonly waiting: number };
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
  // A request takes a place once its body is complete: a client slow to send its body (or never sending
  // it) holds only a place among those receiving, never one of the few places where work runs.
  const receiving = new ReceivingBodies(
    route.line.receiving,
    () => new UnreadBodyOverloadedError("a newer bulk request took the place of this one, whose body had not arrived"),
  );
  const admission = new Bulkhead(
    "bulk requests",
    {
      maxUnits: route.concurrency,
      maxQueuedUnits: route.line.waiting,
      maxWaitMs: route.maxWaitMs,
      ...(route.placeLeaseMs !== undefined && { leaseMs: route.placeLeaseMs }),
    },
    () =>
      new OverloadedError("too many bulk requests under way and waiting, or one waited past its deadline for its turn"),
  );
  const requestExamples = Object.fromEntries(
    Object.entries(route.examples).map(([key, example]) => [
      key,
      { summary: example.summary, value: example.requestBody },
    ]),
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
        query: z.object(route.rpc ? { rpc: rpcQueryParam, trace: traceQueryParam } : { trace: traceQueryParam }),
        body: {
          required: true,
          description: `JSON, at most ${route.maxBodyBytes} bytes; any or no \`Content-Type\`.`,
          content: { "application/json": { schema: route.body, examples: requestExamples } },
        },
      },
      responses: answers,
    });
    const handle = async (c: Context<AppEnv>): Promise<Response> => {
      const body = await bodyOf(c);
      return admission.run(1, async () => handler(c, { body, path }), route.clientOf(c));
    };
    app.post(honoPath(path), declareAnswers(handle, { cache: route.cache, rpc: route.rpc }));
  }

  async function bodyOf(c: Context<AppEnv>): Promise<z.output<B>> {
    refuseDeclaredOverLimit(c, route.maxBodyBytes);
    const place = receiving.enter(route.clientOf(c));
    let text: string;
    try {
      text = await readBodyText(c, route.maxBodyBytes, place.refused);
    } finally {
      place.leave();
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new InvalidInputError("request body is not JSON");
    }
    const parsed = route.body.safeParse(json);
    if (!parsed.success) throw rejection(parsed.error);
    return parsed.data;
  }
}
