import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import npmChromium from "@sparticuz/chromium";
import { type BrowserContext, chromium } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { DEMO_FIXTURE_PATH, loadFixtureFile } from "../../src/localnet/index.js";
import { type Stack, startStack, describeOnNode } from "../../testkit/stack.js";

const SCREENSHOT = "test-results/docs.png";
const DEBIAN_CHROMIUM = "/usr/bin/chromium";
/** Flags of every launch: no traffic of the browser's own, so that every request seen is the page's. */
const QUIET = [
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
/**
 * @sparticuz/chromium's flags for a headless shell in a container, less the two that would relax what this
 * test checks (the page's CSP and same-origin rules).
 */
const RELAXING = new Set(["--disable-web-security", "--allow-running-insecure-content"]);

/**
 * The browser: Debian's chromium when installed, else the headless Chromium that ships inside the
 * @sparticuz/chromium package (unpacked into the temp directory on first use, a few seconds), so that
 * `npm ci && npm test` runs this test on a machine with no browser installed by hand.
 * DOCS_TEST_BROWSER=npm takes the package's one even where Debian's is installed.
 */
async function browser(): Promise<{ executablePath: string; args: string[]; name: string }> {
  if (process.env.DOCS_TEST_BROWSER !== "npm" && existsSync(DEBIAN_CHROMIUM)) {
    return {
      executablePath: DEBIAN_CHROMIUM,
      args: ["--headless", "--no-sandbox", "--disable-gpu", ...QUIET],
      name: DEBIAN_CHROMIUM,
    };
  }
  const executablePath = await npmChromium.executablePath();
  return {
    executablePath,
    args: [...npmChromium.args.filter((flag) => !RELAXING.has(flag)), ...QUIET],
    name: "@sparticuz/chromium",
  };
}

const isLoopback = (url: URL) => ["127.0.0.1", "localhost", "[::1]"].includes(url.hostname);

describeOnNode("/docs in a real browser", () => {
  let stack: Stack;
  let profile: string;
  let context: BrowserContext;

  beforeAll(async () => {
    const { executablePath, args, name } = await browser();
    console.log(`/docs browser test: ${name} (${executablePath})`);
    stack = await startStack(await loadFixtureFile(DEMO_FIXTURE_PATH));
    profile = await mkdtemp(join(tmpdir(), "sns-gateway-docs-"));
    context = await chromium.launchPersistentContext(profile, {
      executablePath,
      headless: true,
      viewport: { width: 1280, height: 900 },
      args,
    });
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    await stack?.close();
    if (profile) await rm(profile, { recursive: true, force: true });
  });

  // 12 s in a full `npm test` on 2 cores (Node 20): a browser page, room beyond the default 30 s.
  it(
    "lists every route of /openapi.json, and every request it makes stays on loopback",
    { timeout: 120_000 },
    async () => {
      const paths = Object.keys(((await stack.get("/openapi.json")).body as { paths: object }).paths);
      const requests: string[] = [];
      const problems: string[] = [];
      context.on("request", (request) => requests.push(request.url()));
      const page = await context.newPage();
      page.on("console", (message) => {
        if (message.type() === "error") problems.push(message.text());
      });
      page.on("pageerror", (error) => problems.push(error.message));

      const answer = await page.goto(`${stack.gateway.url}/docs`, { waitUntil: "load" });
      expect(answer?.status()).toBe(200);
      await page.waitForFunction(
        (expected: string[]) => {
          // Runs in the page; the tests are compiled without the DOM library.
          const page = globalThis as unknown as {
            document: { querySelectorAll(selector: string): Iterable<{ getAttribute(name: string): string | null }> };
          };
          const listed = new Set(
            [...page.document.querySelectorAll(".opblock-summary-path, .opblock-summary-path__deprecated")].map(
              (element) => element.getAttribute("data-path"),
            ),
          );
          return expected.every((path) => listed.has(path));
        },
        paths,
        { timeout: 20_000 },
      );
      // One route opened, so the picture shows its parameters and named examples too.
      await page.click('.opblock-summary-path[data-path="/resolve/{domain}"]');
      await page.waitForSelector("#operations-Resolution-resolve .parameters", { timeout: 10_000 });
      await page.waitForLoadState("networkidle");

      await mkdir("test-results", { recursive: true });
      await page.screenshot({ path: SCREENSHOT, fullPage: true });

      expect(paths.length).toBeGreaterThanOrEqual(20);
      const offLoopback = requests.filter((url) => {
        const parsed = new URL(url);
        return parsed.protocol !== "data:" && parsed.protocol !== "blob:" && !isLoopback(parsed);
      });
      expect(offLoopback).toEqual([]);
      expect(requests.some((url) => url.endsWith("/openapi.json"))).toBe(true);
      // A CSP violation or a failed script would show here.
      expect(problems).toEqual([]);
      expect(existsSync(SCREENSHOT)).toBe(true);
    },
  );
});
