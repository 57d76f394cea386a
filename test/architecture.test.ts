import { readFileSync, readdirSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../src/config.js";
import { answersOf } from "../src/http/openapi/route-answers.js";
import { createNodeGateway } from "../src/platform/node/gateway.js";
import { KEY_MEMO_BYTES, RESOLUTION_MEMO_BYTES } from "../src/sns/derive.js";
import { ON_CURVE_MEMO_BYTES, SIGNATURE_MEMO_BYTES } from "../src/sns/curve.js";
import { memoBudgets } from "../src/sns/memos.js";

// The layering docs/architecture.md describes, checked on the
// sources themselves (as test/platform/platform-free.test.ts checks the
// Workers bundle): each rule names what it protects.

const ROOT = resolve(import.meta.dirname, "..");
const SRC = join(ROOT, "src");

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourcesUnder(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts") ? [path] : [];
  });
}

const withoutComments = (source: string) => source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:])\/\/.*$/gm, "$1");
const code = (path: string) => withoutComments(readFileSync(path, "utf8"));
const rel = (path: string) => relative(ROOT, path);
const ALL = sourcesUnder(SRC);
const under = (folder: string) => (path: string) => path.startsWith(join(SRC, folder) + "/");

/** The relative module specifiers a file imports or re-exports, resolved to paths. */
function relativeImports(path: string): string[] {
  const specifiers = [...code(path).matchAll(/(?:from|import)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/g)].map(
    (match) => match[1]!,
  );
  return specifiers.map((specifier) => resolve(dirname(path), specifier));
}

describe("architecture", () => {
  it("sns/ (pure protocol) imports nothing of the other layers", () => {
    const offenders = ALL.filter(under("sns")).flatMap((path) =>
      relativeImports(path)
        .filter((target) => !target.startsWith(join(SRC, "sns") + "/"))
        .map((target) => `${rel(path)} → ${rel(target)}`),
    );
    expect(offenders).toEqual([]);
  });

  it("memos are created only through src/sns/memos.ts, which reports every budget", () => {
    const offenders = ALL.filter(
      (path) => !path.endsWith("src/sns/memos.ts") && /\bnew SlabMemo\s*\(/.test(code(path)),
    ).map(rel);
    expect(offenders).toEqual([]);
    const budgets = memoBudgets();
    expect(Object.fromEntries(Object.entries(budgets).map(([name, stats]) => [name, stats.budget]))).toEqual({
      keys: KEY_MEMO_BYTES,
      resolutions: RESOLUTION_MEMO_BYTES,
      onCurve: ON_CURVE_MEMO_BYTES,
      signatures: SIGNATURE_MEMO_BYTES,
    });
    for (const stats of Object.values(budgets)) expect(stats.bytes).toBeLessThanOrEqual(stats.budget);
  });

  const gateway = createNodeGateway(loadConfig({ RPC_URL: "http://127.0.0.1:1", METRICS: "on" }));
  const routes = gateway.app.routes.filter((route) => route.method !== "ALL");

  it("every route declares its answers (caching, wording) where it is declared", () => {
    expect(routes.length).toBeGreaterThan(15);
    expect(routes.filter((route) => !answersOf(route.handler)).map((route) => `${route.method} ${route.path}`)).toEqual(
      [],
    );
  });

  it("no route path is written outside src/http/routes/", () => {
    // Each route's first segment (`/resolve`, `/docs`, …) as a string literal starts, from the app's own routes.
    const segments = [...new Set(routes.map((route) => route.path.split("/")[1]!).filter((segment) => segment !== ""))];
    expect(segments).toContain("resolve");
    const literal = new RegExp(`["'\`]/(${segments.map((s) => s.replace(/[.]/g, "\\.")).join("|")})(?=["'\`/?{:])`);
    // The localnet (another server, with its own `/health`) and the demo (a client of the gateway) are not the gateway.
    const gatewaySources = ALL.filter((path) => !under("localnet")(path) && !path.endsWith("src/demo.ts"));
    const offenders = gatewaySources
      .filter((path) => !under("http/routes")(path))
      .filter((path) => literal.test(code(path)))
      .map((path) => `${rel(path)}: ${literal.exec(code(path))![0]}`);
    expect(offenders).toEqual([]);
  });

  // Inside src/http/, each part may import only the parts below it: the app; the routes and the frame (neither
  // imports the other); the routes' dependencies (deps.ts, which names types of the answer pipeline); the answer
  // pipeline; the route declarations and schemas (openapi/); then what they all share (the request's variables,
  // the HTTP layer's errors, the client's identity and allowance, the packaged docs files). A part is a folder,
  // or a file directly in src/http/.
  const HTTP = join(SRC, "http");
  const HTTP_PARTS_BELOW: Readonly<Record<string, readonly string[]>> = {
    "app.ts": ["routes", "frame", "answer", "openapi", "deps.ts", "clients", "env.ts", "errors.ts", "docs-assets.ts"],
    routes: ["answer", "openapi", "deps.ts", "clients", "env.ts", "errors.ts", "docs-assets.ts"],
    frame: ["answer", "openapi", "clients", "env.ts", "errors.ts"],
    answer: ["openapi", "clients", "env.ts", "errors.ts"],
    openapi: ["env.ts", "errors.ts"],
    "deps.ts": ["answer", "clients", "env.ts", "docs-assets.ts"],
    clients: ["env.ts"],
    "env.ts": [],
    "errors.ts": [],
    "docs-assets.ts": [],
  };
  const HTTP_SOURCES = ALL.filter(under("http"));
  const httpPartOf = (path: string) => relative(HTTP, path).split("/")[0]!;
  /** Every import between two files of src/http/ (`import type` included), as [importer, imported]. */
  const httpImports = HTTP_SOURCES.flatMap((path) =>
    relativeImports(path)
      .map((target) => target.replace(/\.js$/, ".ts"))
      .filter(under("http"))
      .map((target) => [path, target] as const),
  );

  it("src/http/ reads one way: each part imports only the parts below it (type-only imports count)", () => {
    expect(HTTP_SOURCES.map(httpPartOf).filter((part) => !(part in HTTP_PARTS_BELOW))).toEqual([]);
    const offenders = httpImports
      .filter(([from, to]) => httpPartOf(from) !== httpPartOf(to))
      .filter(([from, to]) => !HTTP_PARTS_BELOW[httpPartOf(from)]?.includes(httpPartOf(to)))
      .map(([from, to]) => `${rel(from)} → ${rel(to)}`);
    expect(offenders).toEqual([]);
  });

  it("no circle among the files of src/http/ (type-only imports count)", () => {
    const edges = new Map<string, string[]>();
    for (const [from, to] of httpImports) edges.set(from, [...(edges.get(from) ?? []), to]);
    const circles: string[] = [];
    const state = new Map<string, "open" | "done">();
    const visit = (path: string, trail: string[]): void => {
      if (state.get(path) === "done") return;
      if (state.get(path) === "open") {
        circles.push([...trail.slice(trail.indexOf(path)), path].map(rel).join(" → "));
        return;
      }
      state.set(path, "open");
      for (const next of edges.get(path) ?? []) visit(next, [...trail, path]);
      state.set(path, "done");
    };
    for (const path of HTTP_SOURCES) visit(path, []);
    expect(circles).toEqual([]);
  });

  it("src/http/answer/ imports nothing of src/http/frame/", () => {
    const offenders = httpImports
      .filter(([from, to]) => under("http/answer")(from) && under("http/frame")(to))
      .map(([from, to]) => `${rel(from)} → ${rel(to)}`);
    expect(offenders).toEqual([]);
  });

  it("the `rpc` query parameter is read once, by the frame (src/http/frame/frame.ts), which hands it on", () => {
    const reads = /\bquery\(\s*["']rpc["']\s*\)|searchParams\.get\(\s*["']rpc["']\s*\)/;
    const frame = join(SRC, "http/frame/frame.ts");
    const offenders = ALL.filter((path) => path !== frame && reads.test(code(path))).map(rel);
    expect(offenders).toEqual([]);
  });

  it("only src/http/answer/ builds a Response or writes CORS (platform entries answer through its functions)", () => {
    // The tokenized index's Durable Object replies to the Worker over its own internal protocol
    // (src/platform/workers/index-object-protocol.ts): those replies never reach a client. The localnet is
    // another server.
    const indexObject = join(SRC, "platform/workers/tokenized-index-object.ts");
    const internal = (path: string) => path === indexObject || under("localnet")(path);
    const answers = /\bnew Response\s*\(|Access-Control-Allow-Origin/i;
    const offenders = ALL.filter((path) => !under("http/answer")(path) && !internal(path))
      .filter((path) => answers.test(code(path)))
      .map(rel);
    expect(offenders).toEqual([]);
  });

  it("only src/http/answer/ writes an answer's headers or body (c.header, c.body, c.json, c.html, c.text)", () => {
    const writes = /\bc\.(header|body|json|html|text|newResponse)\s*\(/;
    const offenders = ALL.filter((path) => !under("http/answer")(path) && writes.test(code(path))).map(rel);
    expect(offenders).toEqual([]);
  });
});
