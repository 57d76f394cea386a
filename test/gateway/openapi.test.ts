import { Validator } from "@seriousme/openapi-schema-validator";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import { DEMO_FIXTURE_PATH, loadFixtureFile } from "../../src/localnet/index.js";
import { createNodeGateway } from "../../src/platform/node/gateway.js";
import { type Stack, onWorkerd, startStack } from "../../testkit/stack.js";

interface Example {
  readonly summary?: string;
  readonly value: unknown;
}
interface Parameter {
  readonly name: string;
  readonly in: "path" | "query";
  readonly required?: boolean;
  readonly examples?: Record<string, Example>;
}
interface MediaType {
  readonly schema: object;
  readonly examples?: Record<string, Example>;
}
interface Operation {
  readonly operationId: string;
  readonly parameters?: Parameter[];
  readonly requestBody?: { readonly content: Record<string, MediaType> };
  readonly responses: Record<string, { content?: Record<string, MediaType> }>;
}
interface Document {
  readonly openapi: string;
  readonly paths: Record<string, { get?: Operation; post?: Operation }>;
  readonly components?: { schemas?: Record<string, object> };
}

/** A documented example request: its URL, and the status and body the document promises for it. */
interface ExampleCase {
  readonly name: string;
  readonly url: string;
  /** The JSON body of a POST example. */
  readonly requestBody?: unknown;
  readonly status: number;
  readonly schema: object;
  readonly body: unknown;
}

/** The requests the document names: an example name shared by parameters and one response. */
function exampleCases(path: string, operation: Operation): ExampleCase[] {
  // `trace` is on every route and changes no answer's `s` or `result` (test/gateway/trace.test.ts): not a request of its own.
  const parameters = (operation.parameters ?? []).filter((parameter) => parameter.name !== "trace");
  const responseExamples = Object.entries(operation.responses).flatMap(([status, response]) => {
    const json = response.content?.["application/json"];
    return Object.entries(json?.examples ?? {}).map(([name, example]) => ({
      name,
      status: Number(status),
      json: json!,
      example,
    }));
  });
  const bodies = operation.requestBody?.content["application/json"]?.examples ?? {};
  const requested = new Set([
    ...parameters.flatMap((parameter) => Object.keys(parameter.examples ?? {})),
    ...Object.keys(bodies),
  ]);
  // A route without parameters has one request: its bare path, whose answer is its only 200 example.
  const names =
    parameters.length === 0 && !operation.requestBody
      ? responseExamples.filter((e) => e.status === 200).map((e) => e.name)
      : [...requested];
  return names.map((name) => {
    const answers = responseExamples.filter((example) => example.name === name);
    expect(answers, `${path} example ${name}: exactly one documented answer`).toHaveLength(1);
    const [answer] = answers;
    let url = path;
    const query = new URLSearchParams();
    for (const parameter of parameters) {
      const value = parameter.examples?.[name]?.value;
      if (value === undefined) {
        expect(parameter.required ?? false, `${path} example ${name} gives ${parameter.name}`).toBe(false);
        continue;
      }
      if (parameter.in === "path") url = url.replace(`{${parameter.name}}`, encodeURIComponent(String(value)));
      else query.set(parameter.name, String(value));
    }
    const search = query.toString();
    const requestBody = bodies[name]?.value;
    return {
      name,
      url: search ? `${url}?${search}` : url,
      ...(requestBody !== undefined && { requestBody }),
      status: answer!.status,
      schema: answer!.json.schema,
      body: answer!.example.value,
    };
  });
}

let stack: Stack;
let document: Document;

/** Every operation of the document, with its path. */
const operations = (): [string, Operation][] =>
  Object.entries(document.paths).flatMap(([path, item]) =>
    [item.get, item.post].flatMap((operation) => (operation ? [[path, operation] as [string, Operation]] : [])),
  );

beforeAll(async () => {
  stack = await startStack(await loadFixtureFile(DEMO_FIXTURE_PATH));
  const answer = await stack.get("/openapi.json");
  expect(answer.status).toBe(200);
  document = answer.body as Document;
});

afterAll(() => stack?.close());

describe("GET /openapi.json", () => {
  it("is a valid OpenAPI 3.1 document", async () => {
    const validator = new Validator();
    const result = await validator.validate(
      structuredClone(document) as unknown as Parameters<Validator["validate"]>[0],
    );
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
    expect(document.openapi).toBe("3.1.0");
  });

  it.each(["GET", "POST"])("lists every %s route the app serves, and nothing it does not", (method) => {
    const served = new Set(
      // The same app as the target's: Workers export no metrics, so no /metrics there.
      createNodeGateway(loadConfig({ LOG_LEVEL: "silent", METRICS: onWorkerd ? "off" : "on" }))
        .app.routes.filter((route) => route.method === method)
        .map((route) => route.path.replace(/:(\w+)/g, "{$1}")),
    );
    const key = method === "GET" ? "get" : "post";
    expect(new Set(Object.entries(document.paths).flatMap(([path, item]) => (item[key] ? [path] : [])))).toEqual(
      served,
    );
  });

  it("documents `rpc` on every route that reads the chain, and only there", () => {
    const withRpc = Object.entries(document.paths)
      .filter(([, item]) => item.get?.parameters?.some((p) => p.name === "rpc" && p.in === "query"))
      .map(([path]) => path.split("/")[1])
      .sort();
    expect(withRpc).toEqual(
      [
        "create-subdomain",
        "domains",
        "favorite-domain",
        "multiple-favorite-domains",
        "multiple-primary-domains",
        "primary-domain",
        "record-v2",
        "records-v2",
        "register",
        "resolve",
        "reverse-lookup",
        "safe-resolve",
        "subdomains",
      ].sort(),
    );
  });

  it("gives every route with a JSON answer at least one example request and every error status a body", () => {
    for (const [path, operation] of operations()) {
      if (!operation.responses["200"]?.content?.["application/json"] && !operation.responses["400"]) continue;
      if (path === "/openapi.json" || path.startsWith("/docs")) continue;
      // Readiness reports the live state of a deploy (tip slot, version, index lag): no fixed example can
      // equal it; test/gateway/readiness.test.ts checks its answers, and the schema below still applies.
      if (path === "/ready") continue;
      expect(exampleCases(path, operation).length, path).toBeGreaterThan(0);
      for (const [status, response] of Object.entries(operation.responses)) {
        if (status === "200") continue;
        expect(
          Object.keys(response.content?.["application/json"]?.examples ?? {}).length,
          `${path} ${status}`,
        ).toBeGreaterThan(0);
      }
    }
  });

  it("is answered with CORS, a short shared cache lifetime, and 405 in the envelope for other methods", async () => {
    const answer = await stack.get("/openapi.json");
    expect(answer.headers.get("content-type")).toMatch(/^application\/json/);
    expect(answer.headers.get("access-control-allow-origin")).toBe("*");
    expect(answer.headers.get("cache-control")).toBe("public, max-age=300");
    const post = await stack.get("/openapi.json", { method: "POST" });
    expect(post.status).toBe(405);
    expect(post.body).toEqual({ s: "error", result: "Method not allowed" });
  });
});

describe("every documented example request, sent to the demo ledger", () => {
  it("answers the documented status and example body, valid against the documented schema", async () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    let sent = 0;
    for (const [path, operation] of operations()) {
      for (const example of exampleCases(path, operation)) {
        const post = example.requestBody !== undefined;
        const answer = await stack.get(
          example.url,
          post ? { method: "POST", body: JSON.stringify(example.requestBody) } : undefined,
        );
        const where = `${example.name}: ${post ? "POST" : "GET"} ${example.url}`;
        expect(answer.status, where).toBe(example.status);
        const validate = ajv.compile({ ...example.schema, components: document.components });
        expect(validate(answer.body), `${where}: ${ajv.errorsText(validate.errors)}`).toBe(true);
        expect(answer.body, where).toEqual(example.body);
        sent += 1;
      }
    }
    expect(sent).toBeGreaterThanOrEqual(40);
  });

  it("answers a body that breaks the documented schema as invalid (the check can fail)", () => {
    const ajv = new Ajv2020({ strict: false });
    const operation = document.paths["/resolve/{domain}"]!.get!;
    const schema = operation.responses["200"]!.content!["application/json"]!.schema;
    const validate = ajv.compile({ ...schema, components: document.components });
    expect(validate({ s: "ok", result: "not base58!" })).toBe(false);
    expect(validate({ s: "ok", result: "Hbn1ZdzThM2Hhd4V79imRRHFBsnjzskG6j9GZto8fSs7", extra: 1 })).toBe(false);
  });
});

describe("GET /docs", () => {
  it("is an HTML page that loads only files of this gateway, under a same-origin CSP", async () => {
    const answer = await stack.get("/docs");
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toMatch(/^text\/html/);
    expect(answer.headers.get("cache-control")).toBe("public, max-age=300");
    expect(answer.headers.get("content-security-policy")).toContain("default-src 'none'");
    const sources = [...answer.text.matchAll(/(?:src|href)="([^"]*)"/g)].map((match) => match[1]);
    expect(sources.length).toBeGreaterThan(0);
    for (const source of sources) expect(source).toMatch(/^(docs\/[\w.-]+|data:,)$/);
    for (const source of sources.filter((s) => s!.startsWith("docs/"))) {
      const asset = await stack.get(`/${source}`);
      expect(asset.status, source).toBe(200);
      expect(asset.text.length, source).toBeGreaterThan(0);
      expect(asset.text, source).not.toContain("sourceMappingURL");
    }
  });

  it("/docs/ moves permanently to /docs, query kept (the page's relative file names resolve from /docs only)", async () => {
    for (const [path, location] of [
      ["/docs/", "/docs"],
      ["/docs/?url=%2Fopenapi.json&x=1", "/docs?url=%2Fopenapi.json&x=1"],
    ]) {
      const answer = await stack.get(path!, { redirect: "manual" });
      expect([path, answer.status, answer.headers.get("location")]).toEqual([path, 301, location]);
      expect(answer.headers.get("access-control-allow-origin")).toBe("*");
      expect(answer.headers.get("cache-control")).toBe("public, max-age=300");
      const followed = await stack.get(path!);
      expect([path, followed.status, followed.headers.get("content-type")]).toEqual([
        path,
        200,
        "text/html; charset=UTF-8",
      ]);
    }
  });

  it("answers an unknown asset with 404 in the envelope", async () => {
    const answer = await stack.get("/docs/package.json");
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ s: "error", result: "Not found" });
    expect(answer.headers.get("cache-control")).toBe("no-store");
  });
});

describe("the schemas behind the document check input in the same order as before", () => {
  const tooLong = `https://${"a".repeat(2100)}.example`;
  it.each([
    ["suffix before labels", "/resolve/a.b.c.bonfida.com", 400, "Unsupported TLD"],
    ["the path before a refused rpc", "/resolve/bonfida.com?rpc=https://127.0.0.1", 400, "Unsupported TLD"],
    ["the path before an over-long rpc", `/resolve/bonfida.com?rpc=${tooLong}`, 400, "Unsupported TLD"],
    ["an over-long rpc once the path is good", `/resolve/plain.sns?rpc=${tooLong}`, 400, "Invalid input"],
    [
      "a refused rpc on a route without other input checks",
      "/subdomains/bonfida?rpc=http://10.0.0.1",
      400,
      "Invalid input",
    ],
    ["records given twice", "/records-v2/profile?records=SOL&records=url", 400, "Invalid input"],
    ["records missing", "/records-v2/profile", 400, "Invalid input"],
    [
      "a deprecated route, whatever its input",
      "/record-key/a..b/nope?rpc=file:///etc/passwd",
      400,
      "This endpoint is deprecated. Use /record-key-v2/:domain/:record instead.",
    ],
  ])("%s", async (_, path, status, message) => {
    const answer = await stack.get(path);
    expect(answer.status).toBe(status);
    expect(answer.body).toEqual({ s: "error", result: message });
  });

  it("does not refuse rpc given twice (the first value counts, as before)", async () => {
    const answer = await stack.get("/resolve/plain.sns?rpc=&rpc=https://127.0.0.1");
    expect(answer.status).toBe(200);
  });
});
