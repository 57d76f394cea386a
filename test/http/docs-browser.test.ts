import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_FIXTURE_PATH, loadFixtureFile } from "../../src/localnet/index.js";
import { type Stack, startStack } from "../../testkit/stack.js";

const CHROMIUM = "/usr/bin/chromium";
const SCREENSHOT = "test-results/docs.png";
// CI installs chromium (.ci/run): there a missing browser is a failure, not a skip.
const required = process.env.CI === "true";
const available = existsSync(CHROMIUM);

if (!available && !required) console.warn(`${CHROMIUM} not found: the /docs browser test is skipped (CI=true makes it fail)`);

const isLoopback = (url: URL) => ["127.0.0.1", "localhost", "[::1]"].includes(url.hostname);

describe.skipIf(!available && !required)("/docs in a real browser", () => {
  let stack: Stack;
  let profile: string;
  let context: BrowserContext;

  beforeAll(async () => {
    if (!available) throw new Error(`${CHROMIUM} is missing: install Debian's chromium (apt-get install chromium)`);
    stack = await startStack(await loadFixtureFile(DEMO_FIXTURE_PATH));
    profile = await mkdtemp(join(tmpdir(), "sns-gateway-docs-"));
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      viewport: { width: 1280, height: 900 },
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    });
  });

  afterAll(async () => {
    await context?.close();
    await stack?.close();
    if (profile) await rm(profile, { recursive: true, force: true });
  });

  it("lists every route of /openapi.json, and every request it makes stays on loopback", async () => {
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
          [...page.document.querySelectorAll(".opblock-summary-path, .opblock-summary-path__deprecated")].map((element) =>
            element.getAttribute("data-path"),
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
  });
});
