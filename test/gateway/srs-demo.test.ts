import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_FIXTURE_PATH, loadFixtureFile } from "../../src/localnet/index.js";
import { SRS_DEMO_EXAMPLES } from "../../src/localnet/srs-demo.js";
import { type Stack, startStack } from "../../testkit/stack.js";

/** Every SRS curl line `npm run demo -- --srs` prints is answered as it says, on the demo ledger with SRS on. */
let stack: Stack;
beforeAll(async () => {
  stack = await startStack(await loadFixtureFile(DEMO_FIXTURE_PATH), { SOL_SRS_RESOLUTION: "on" });
});
afterAll(() => stack?.close());

describe("npm run demo -- --srs", () => {
  it.each(SRS_DEMO_EXAMPLES)("%s: %s → %i", async (_, path, status) => {
    const answer = await stack.get(path);
    expect(answer.status).toBe(status);
    expect(answer.headers.get("content-type")).toMatch(/^application\/json/);
  });
});
