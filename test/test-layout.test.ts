import { readFileSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import config from "../vitest.config.js";

/**
 * Which files run under workerd follows from their folder: test/gateway/ runs on Node and on workerd
 * (vitest.config.ts). A file elsewhere that starts testkit/stack.ts's gateway runs on Node alone, and says
 * so by registering its groups with describeOnNode.
 */
const TEST_ROOT = fileURLToPath(new URL(".", import.meta.url));
const BOTH_TARGETS_FOLDER = "gateway/";

const testFiles = (readdirSync(TEST_ROOT, { recursive: true }) as string[])
  .map((path) => path.replaceAll("\\", "/"))
  .filter((path) => path.endsWith(".test.ts"))
  .sort();

const STARTS_STACK_GATEWAY = /\b(startStack|startTestGateway)\(/;
/** A group or test registered at the top level of a file, outside describeOnNode. */
const TOP_LEVEL_REGISTRATION = /^(describe|it|test)\b[.\w]*\(/m;

describe("test files that start testkit/stack.ts's gateway", () => {
  it("are in test/gateway/ (both targets), or register every group with describeOnNode", () => {
    const users = testFiles.filter((path) => STARTS_STACK_GATEWAY.test(readFileSync(TEST_ROOT + path, "utf8")));
    expect(users.length).toBeGreaterThan(10);
    const unmarked = users.filter((path) => {
      if (path.startsWith(BOTH_TARGETS_FOLDER)) return false;
      const text = readFileSync(TEST_ROOT + path, "utf8");
      return !text.includes("describeOnNode(") || TOP_LEVEL_REGISTRATION.test(text);
    });
    expect(unmarked, "move them to test/gateway/ or wrap their groups in describeOnNode").toEqual([]);
  });

  it("in test/gateway/ are exactly the files the workerd project runs", () => {
    const projects = (config.test?.projects ?? []) as { test?: { name?: string; include?: string[] } }[];
    const workerd = projects.find((project) => project.test?.name === "workerd");
    expect(workerd?.test?.include).toEqual([`test/${BOTH_TARGETS_FOLDER}**/*.test.ts`]);
    expect(testFiles.filter((path) => path.startsWith(BOTH_TARGETS_FOLDER)).length).toBeGreaterThan(10);
  });
});
