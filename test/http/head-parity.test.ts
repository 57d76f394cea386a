import { afterAll, beforeAll, expect, it } from "vitest";
import { DEMO_FIXTURE_PATH, identity, loadFixtureFile } from "../../src/localnet/index.js";
import { rawExchange } from "../../testkit/raw-http.js";
import { type Stack, startStack, describeOnNode } from "../../testkit/stack.js";

/**
 * `HEAD` on every GET route (enumerated from the OpenAPI document, with the
 * `/docs` page's files, `/metrics`, `/health`, and a path no route matches)
 * carries the headers `GET` carries, and no body: over raw HTTP, with the
 * same request id asked for, headers compared but for those about the
 * body's length and the connection.
 */

/** Headers about the length of a body HEAD does not send, the connection, and the moment. */
const NOT_COMPARED = new Set(["date", "content-length", "transfer-encoding", "connection", "keep-alive"]);

const alice = identity("alice").address;
/** A value for a parameter without an example in the document. */
const FALLBACK: Record<string, string> = {
  owner: alice,
  owners: alice,
  pubkey: alice,
  buyer: alice,
  domain: "bonfida",
  record: "SOL",
};

interface ParameterDoc {
  readonly name: string;
  readonly in: "path" | "query";
  readonly required?: boolean;
  readonly example?: unknown;
  readonly schema?: { readonly example?: unknown; readonly enum?: readonly string[] };
}

/** Each GET path of the document with its parameters filled in: one per value of an enumerated path parameter. */
function concretePaths(document: { paths: Record<string, { get?: { parameters?: ParameterDoc[] } }> }): string[] {
  const paths: string[] = [];
  for (const [template, operations] of Object.entries(document.paths)) {
    if (!operations.get) continue;
    const parameters = operations.get.parameters ?? [];
    const valueOf = (parameter: ParameterDoc) =>
      String(
        parameter.example ??
          parameter.schema?.example ??
          FALLBACK[parameter.name] ??
          parameter.schema?.enum?.[0] ??
          "x",
      );
    const query = parameters
      .filter((parameter) => parameter.in === "query" && parameter.required)
      .map((parameter) => `${parameter.name}=${encodeURIComponent(valueOf(parameter))}`)
      .join("&");
    let variants = [template];
    for (const parameter of parameters.filter((parameter) => parameter.in === "path")) {
      const values =
        parameter.schema?.enum && parameter.example === undefined && parameter.schema.example === undefined
          ? parameter.schema.enum
          : [valueOf(parameter)];
      variants = variants.flatMap((path) =>
        values.map((value) => path.replace(`{${parameter.name}}`, encodeURIComponent(value))),
      );
    }
    paths.push(...variants.map((path) => (query ? `${path}?${query}` : path)));
  }
  return paths;
}

/** Every route of the legacy profile (src/http/routes/legacy/), its parameters filled in, and a path none matches. */
const LEGACY_PATHS = [
  "/",
  `/resolve/bonfida`,
  `/domain-key/bonfida`,
  `/reverse-key/bonfida`,
  `/reverse-lookup/${alice}`,
  `/subdomains/bonfida`,
  `/domains/${alice}`,
  `/favorite-domain/${alice}`,
  `/multiple-favorite-domains/${alice},${alice}`,
  `/record-key/bonfida/SOL`,
  `/record/bonfida/SOL`,
  `/records/bonfida?records=SOL,url`,
  `/record-v2/bonfida/SOL`,
  `/records-v2/bonfida?records=SOL,url`,
  `/types/record`,
  `/register?buyer=${alice}&domain=fresh-name&space=1000&serialize=true`,
  `/create-sub?subdomain=x.bonfida&owner=${alice}`,
  `/twitter/get-handle-by-key/${alice}`,
  `/twitter/get-key-by-handle/alice`,
  "/no-such-route",
];

let stack: Stack;
/** The same chain with every host answered by the legacy profile. */
let legacy: Stack;
let paths: string[];
beforeAll(async () => {
  [stack, legacy] = await Promise.all([
    startStack(await loadFixtureFile(DEMO_FIXTURE_PATH)),
    startStack(await loadFixtureFile(DEMO_FIXTURE_PATH), { LEGACY_HOSTS: "*" }),
  ]);
  const document = (await stack.get("/openapi.json")).body as Parameters<typeof concretePaths>[0];
  paths = [...concretePaths(document), "/no-such-route"];
});
afterAll(() => Promise.all([stack?.close(), legacy?.close()]));

const exchange = (target: Stack, method: "GET" | "HEAD", path: string, id: string) =>
  rawExchange(
    target.gateway.url,
    `${method} ${path} HTTP/1.1\r\nHost: gateway\r\nX-Request-Id: ${id}\r\nConnection: close\r\n\r\n`,
  );

/** The client's call allowance: present on both, its count down by what the requests before it spent. */
const COUNTED = new Set(["ratelimit-remaining", "ratelimit-reset"]);

const compared = (headers: Record<string, string>) =>
  Object.fromEntries(
    Object.entries(headers)
      .filter(([name]) => !NOT_COMPARED.has(name))
      .map(([name, value]) => [name, COUNTED.has(name) ? "(a count)" : value]),
  );

describeOnNode("HEAD", () => {
  it("covers every GET route of the document, the /docs files, /metrics and /health", () => {
    for (const path of [
      "/openapi.json",
      "/docs",
      "/docs/init.js",
      "/docs/swagger-ui-bundle.js",
      "/docs/swagger-ui.css",
      "/metrics",
      "/health",
      "/",
    ]) {
      expect(paths).toContain(path);
    }
    expect(paths.length).toBeGreaterThan(25);
  });

  /** What differs between HEAD and GET on each path: status, a header, or a body. */
  async function headMismatches(target: Stack, paths: readonly string[]): Promise<string[]> {
    const mismatches: string[] = [];
    for (const [i, path] of paths.entries()) {
      const id = `head-parity-${i}`;
      const get = await exchange(target, "GET", path, id);
      const head = await exchange(target, "HEAD", path, id);
      expect(get.headers["access-control-allow-origin"], path).toBe("*");
      expect(get.headers["x-request-id"], path).toBe(id);
      if (head.status !== get.status) mismatches.push(`${path}: HEAD ${head.status}, GET ${get.status}`);
      const want = compared(get.headers);
      const got = compared(head.headers);
      if (JSON.stringify(got, Object.keys(got).sort()) !== JSON.stringify(want, Object.keys(want).sort())) {
        mismatches.push(`${path}: HEAD ${JSON.stringify(got)} GET ${JSON.stringify(want)}`);
      }
      if (head.body !== "") mismatches.push(`${path}: HEAD has a body of ${head.body.length} characters`);
    }
    return mismatches;
  }

  it("answers with every header GET answers with, and no body, on every route", async () => {
    expect(await headMismatches(stack, paths)).toEqual([]);
  });

  it("does the same on every route of the legacy profile", async () => {
    const statuses = new Set<number>();
    for (const path of LEGACY_PATHS) statuses.add((await legacy.get(path)).status);
    // The list reaches answers and refusals both: 200 and at least one error status.
    expect(statuses.has(200)).toBe(true);
    expect([...statuses].some((status) => status >= 400)).toBe(true);
    expect(await headMismatches(legacy, LEGACY_PATHS)).toEqual([]);
  });
});
