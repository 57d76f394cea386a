import { type OpenAPIHono, type RouteConfig, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { type CacheClass, type RouteAnswers, type RouteWording, declareAnswers } from "./route-answers.js";
import type { AppEnv } from "../env.js";
import { type PlainCheck, plainCheckOf, rejection, rpcQueryParam, traceQueryParam } from "./request-schemas.js";
import { errorEnvelope, okEnvelope } from "./response-schemas.js";

type Shape = Record<string, z.ZodType>;
type Parsed<S extends Shape> = { [K in keyof S]: z.output<S[K]> };
type Messages = readonly [string, ...string[]];

/**
 * One request the document shows and the tests send to the demo ledger:
 * its parameters, and the status and body it is answered with there.
 */
export interface ExampleRequest {
  readonly summary: string;
  readonly params?: Readonly<Record<string, string>>;
  readonly query?: Readonly<Record<string, string>>;
  readonly status: number;
  readonly body: unknown;
}

export interface DocumentedRoute<P extends Shape, Q extends Shape> {
  /** OpenAPI paths (`/primary-domain/{owner}`); more than one for upstream's aliases. */
  readonly paths: readonly [string, ...string[]];
  readonly tag: string;
  readonly summary: string;
  readonly description?: string;
  /** Path parameters, checked in this order. */
  readonly params: P;
  /** Query parameters other than `rpc`, checked after the path, in this order. */
  readonly query: Q;
  /**
   * A repeated query key gives its first value, as upstream's `c.req.query()`
   * reads it; otherwise the member's schema sees the list.
   */
  readonly firstQueryValues?: boolean;
  /** Reads the chain: takes `rpc`, and can fail the ways an RPC exchange fails. */
  readonly rpc: boolean;
  /** How long shared caches may keep a success (answer/cache-policy.ts). */
  readonly cache: CacheClass;
  /** The route's own wording of failures, where upstream's differs by route (answer/classify.ts). */
  readonly wording?: RouteWording;
  /** `result` of a 200 answer; undefined for a route that always fails (the deprecated ones). */
  readonly result: z.ZodType | undefined;
  /** Statuses and messages of the failures this route itself can answer. */
  readonly errors: Readonly<Record<number, Messages>>;
  /** Named example requests; the names key parameter examples and response examples alike. */
  readonly examples: Readonly<Record<string, ExampleRequest>>;
}

/** What any route reading the chain can answer besides its own failures. */
export const RPC_FAILURES: Readonly<Record<number, Messages>> = {
  400: ["Invalid input"],
  429: ["Too many requests"],
  500: ["Internal error"],
  502: ["RPC unavailable"],
  503: ["Service overloaded"],
};

const STATUS_DESCRIPTIONS: Readonly<Record<number, string>> = {
  200: "Success",
  400: "Invalid input, an unsupported TLD or a refused `rpc` override",
  404: "Nothing on chain for this input",
  413: "The request body is over the route's limit",
  422: "An account or record that cannot be decoded or fails validation",
  429: "This client caused too many JSON-RPC calls this minute (`RPC_RATE_LIMIT`; with `rpc`, `RPC_OVERRIDE_RATE_LIMIT`): retry after `Retry-After` seconds",
  500: "Internal error (no RPC configured, a tokenized domain without a holder, a PDA owner not allowed)",
  502: "The RPC endpoint failed, timed out or answered out of bounds",
  503: "This gateway has no room for the request now (answer memory or a queue full): retry after `Retry-After` seconds",
};

/** Headers a status's answers carry besides the envelope's own. */
type Headers = Readonly<
  Record<
    string,
    { readonly description: string; readonly schema: { readonly type: "integer"; readonly minimum: number } }
  >
>;
const STATUS_HEADERS: Readonly<Record<number, Headers>> = {
  503: { "Retry-After": { description: "Seconds to wait before retrying", schema: { type: "integer", minimum: 1 } } },
};

/** What an answer that read the chain says of when (answer/headers.ts); documented on every route with `rpc`. */
const READ_HEADERS: Headers = {
  "X-Context-Slot": {
    description:
      "The lowest `context.slot` of the RPC reads the answer came from (for a bulk answer, the lowest of its " +
      "items'). Absent when the answer read nothing.",
    schema: { type: "integer", minimum: 0 },
  },
  Age: {
    description: "Whole seconds since the answer was read, when it is served from a cache (RFC 9111).",
    schema: { type: "integer", minimum: 0 },
  },
};

export const honoPath = (path: string) => path.replace(/\{(\w+)\}/g, ":$1");
export const operationId = (path: string) =>
  (path.split("/")[1] ?? "root").replace(/[-.](\w)/g, (_, letter: string) => letter.toUpperCase());
const exampleKey = (message: string) =>
  message
    .replace(/[^A-Za-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")
    .toLowerCase();

function mergeFailures(...tables: Readonly<Record<number, Messages>>[]): Map<number, string[]> {
  const merged = new Map<number, string[]>();
  for (const table of tables) {
    for (const [status, messages] of Object.entries(table)) {
      const list = merged.get(Number(status)) ?? [];
      for (const message of messages) if (!list.includes(message)) list.push(message);
      merged.set(Number(status), list);
    }
  }
  return new Map([...merged].sort(([a], [b]) => a - b));
}

/** Each member of `shape` annotated with the example values it takes in `examples`. */
function withExamples(
  shape: Shape,
  where: "params" | "query",
  examples: Readonly<Record<string, ExampleRequest>>,
): Shape {
  return Object.fromEntries(
    Object.entries(shape).map(([name, schema]) => {
      const values = Object.entries(examples).flatMap(([key, example]) => {
        const value = example[where]?.[name];
        return value === undefined ? [] : [[key, { summary: example.summary, value }] as const];
      });
      return [name, values.length === 0 ? schema : schema.openapi({ param: { examples: Object.fromEntries(values) } })];
    }),
  );
}

/** The route's responses: the envelope per status, with its example answers and one body per message. */
export function responses(route: Omit<DocumentedRoute<Shape, Shape>, "params" | "query">): RouteConfig["responses"] {
  const examplesOf = (status: number) =>
    Object.fromEntries(
      Object.entries(route.examples)
        .filter(([, example]) => example.status === status)
        .map(([key, example]) => [key, { summary: example.summary, value: example.body }]),
    );
  const answers: RouteConfig["responses"] = {};
  if (route.result) {
    answers[200] = {
      description: STATUS_DESCRIPTIONS[200] ?? "Success",
      ...(route.rpc && { headers: READ_HEADERS }),
      content: { "application/json": { schema: okEnvelope(route.result), examples: examplesOf(200) } },
    };
  }
  const failures = mergeFailures(route.errors, route.rpc ? RPC_FAILURES : {});
  for (const [status, messages] of failures) {
    const shown = examplesOf(status);
    const answered = new Set(Object.values(shown).map((example) => (example.value as { result?: unknown }).result));
    for (const message of messages) {
      if (!answered.has(message))
        shown[exampleKey(message)] = { summary: message, value: { s: "error", result: message } };
    }
    answers[status] = {
      description: STATUS_DESCRIPTIONS[status] ?? "Error",
      ...((STATUS_HEADERS[status] || (route.rpc && status < 500)) && {
        headers: { ...(route.rpc && status < 500 && READ_HEADERS), ...STATUS_HEADERS[status] },
      }),
      content: { "application/json": { schema: errorEnvelope(messages as [string, ...string[]]), examples: shown } },
    };
  }
  return answers;
}

/**
 * Adds a GET route to `app` and to its OpenAPI document from one description.
 * Input is checked by the very schemas the document lists (path parameters
 * through their plain checks, which answer the same): the path first,
 * then the query, member by member in declared order, the first failure
 * answering with its typed error; `rpc` is left to the route's first
 * `c.get("rpc")()`, after everything else, as upstream checks it.
 */
export function documentedGet<P extends Shape, Q extends Shape>(
  app: OpenAPIHono<AppEnv>,
  route: DocumentedRoute<P, Q>,
  handler: (c: Context<AppEnv>, input: { params: Parsed<P>; query: Parsed<Q> }) => Response | Promise<Response>,
): void {
  const params = withExamples(route.params, "params", route.examples);
  const query = withExamples(route.query, "query", route.examples);
  const documentedQuery = route.rpc
    ? { ...query, rpc: rpcQueryParam, trace: traceQueryParam }
    : { ...query, trace: traceQueryParam };
  const documented = responses(route as DocumentedRoute<Shape, Shape>);
  // The route's own schemas (not their annotated copies) key the plain checks.
  const paramChecks = memberChecks(route.params, params);
  const queryChecks = memberChecks(route.query, query);
  const firstValues = route.firstQueryValues === true;

  for (const path of route.paths) {
    app.openAPIRegistry.registerPath({
      method: "get",
      path,
      operationId: operationId(path),
      tags: [route.tag],
      summary: route.summary,
      ...(route.description === undefined ? {} : { description: route.description }),
      request: {
        ...(Object.keys(params).length > 0 ? { params: z.object(params) } : {}),
        ...(Object.keys(documentedQuery).length > 0 ? { query: z.object(documentedQuery) } : {}),
      },
      responses: documented,
    });
    app.get(
      honoPath(path),
      declareAnswers((c: Context<AppEnv>) => {
        const parsedParams: Record<string, unknown> = {};
        for (const { name, check } of paramChecks) parsedParams[name] = check(c.req.param(name) ?? "");
        // A route without query parameters of its own shares one empty record.
        const parsedQuery: Record<string, unknown> = queryChecks.length === 0 ? NO_QUERY : {};
        for (const { name, check } of queryChecks) {
          const values = c.req.queries(name);
          parsedQuery[name] = check(
            values === undefined ? undefined : values.length === 1 || firstValues ? values[0] : values,
          );
        }
        return handler(c, { params: parsedParams as Parsed<P>, query: parsedQuery as Parsed<Q> });
      }, answers(route)),
    );
  }
}

/** What a route declares about its answers, for the pipeline (route-answers.ts). */
const answers = ({
  cache,
  wording,
  rpc,
}: {
  readonly cache: CacheClass;
  readonly wording?: RouteWording;
  readonly rpc: boolean;
}): RouteAnswers => (wording === undefined ? { cache, rpc } : { cache, wording, rpc });

/**
 * A route outside the envelope (the API reference, metrics), described to
 * the OpenAPI document by hand: its GET handler and what it declares about
 * its answers.
 */
export function plainGet(
  app: OpenAPIHono<AppEnv>,
  path: string,
  cache: CacheClass,
  handler: (c: Context<AppEnv>) => Response | Promise<Response>,
): void {
  app.get(path, declareAnswers(handler, { cache }));
}

const NO_QUERY: Record<string, unknown> = Object.freeze({});

interface MemberCheck {
  readonly name: string;
  readonly check: (raw: unknown) => unknown;
}

/**
 * The members' checks in declared order, built once per route: a schema's
 * plain check where it has one (path parameters, always strings), else its
 * parse, the first failure thrown as its typed error.
 */
function memberChecks(declared: Shape, documented: Shape): MemberCheck[] {
  return Object.keys(declared).map((name) => {
    const plain: PlainCheck | undefined = plainCheckOf(declared[name]!);
    if (plain) return { name, check: (raw) => plain(raw as string) };
    const schema = documented[name]!;
    return {
      name,
      check: (raw) => {
        const result = schema.safeParse(raw);
        if (!result.success) throw rejection(result.error);
        return result.data;
      },
    };
  });
}
