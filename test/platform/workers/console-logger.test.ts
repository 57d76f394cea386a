import { afterEach, describe, expect, it, vi } from "vitest";
import { createConsoleLogger } from "../../../src/platform/workers/console-logger.js";

afterEach(() => vi.restoreAllMocks());

describe("createConsoleLogger", () => {
  it("writes one JSON line per call, with pino's level numbers and errors as fields", () => {
    const lines: string[] = [];
    vi.spyOn(console, "log").mockImplementation((line: string) => void lines.push(line));
    const logger = createConsoleLogger("info");
    logger.info({ reqId: "a", status: 200 }, "request");
    logger.warn({ err: new TypeError("boom") }, "request failed");
    const [info, warn] = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(info).toMatchObject({ level: 30, reqId: "a", status: 200, msg: "request" });
    expect(warn).toMatchObject({ level: 40, err: { type: "TypeError", message: "boom" }, msg: "request failed" });
  });

  it("drops lines below its level", () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => undefined);
    createConsoleLogger("warn").info({}, "request");
    createConsoleLogger("silent").error({}, "x");
    expect(log).not.toHaveBeenCalled();
  });
});
