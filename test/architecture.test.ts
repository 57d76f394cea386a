import { readFileSync, readdirSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../src/config.js";
import { answersOf } from "../src/http/answer/route-answers.js";
import { createNodeGateway } from "../src/platform/node/gateway.js";
import { KEY_MEMO_BYTES, RESOLUTION_MEMO_BYTES } from "../src/sns/derive.js";
import { ON_CURVE_MEMO_BYTES, SIGNATURE_MEMO_BYTES } from "../src/sns/curve.js";
import { memoBudgets } from "../src/sns/memos.js";

// The layering the README's Architecture section describes, checked on the
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

  it("only src/http/answer/ writes an answer's headers or body (c.header, c.body, c.json, c.html, c.text)", () => {
    const writes = /\bc\.(header|body|json|html|text|newResponse)\s*\(/;
    const offenders = ALL.filter((path) => !under("http/answer")(path) && writes.test(code(path))).map(rel);
    expect(offenders).toEqual([]);
  });
});
