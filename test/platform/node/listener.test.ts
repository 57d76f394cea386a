import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { type DrainableServer, createDrainableServer } from "../../../src/platform/node/listener.js";
import { captureLog } from "../../../testkit/log-capture.js";

// The Node listener's answer before the app (src/platform/node/listener.ts): an answer given there, at once
// or later, is the answer; a decline or a throw leaves the request to the app, never unanswered, and a
// throw once the answer's headers are out cuts the request off.

type BeforeApp = (request: IncomingMessage, response: ServerResponse) => boolean;

describe("the Node listener's answer before the app", () => {
  const log = captureLog();
  let running: DrainableServer | undefined;
  afterEach(async () => {
    await running?.drain(100);
    running = undefined;
    log.clear();
  });

  async function serve(answerBeforeApp: BeforeApp): Promise<string> {
    running = createDrainableServer({
      fetch: () => new Response("from the app", { status: 200 }),
      logger: log.logger,
      headersTimeoutMs: 5000,
      answerBeforeApp,
    });
    const { server } = running;
    await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  const answerLater: BeforeApp = (request, response) => {
    setTimeout(() => {
      response.writeHead(201, { "content-type": "text/plain" });
      response.end(`before the app: ${request.url}`);
    }, 20);
    return true;
  };
  it.each<[string, BeforeApp, number, string, number]>([
    ["given at once", (_, response) => (response.end("at once"), true), 200, "at once", 0],
    ["given later", answerLater, 201, "before the app: /x", 0],
    ["declined at once", () => false, 200, "from the app", 0],
    [
      "thrown",
      () => {
        throw new Error("at once");
      },
      200,
      "from the app",
      1,
    ],
  ])("an answer %s", async (_, answerBeforeApp, status, body, warnings) => {
    const url = await serve(answerBeforeApp);
    const answer = await fetch(`${url}/x`);
    expect([answer.status, await answer.text()]).toEqual([status, body]);
    const warned = log.lines().filter((line) => line.msg === "answer before the app failed; the app answers");
    expect(warned).toHaveLength(warnings);
  });

  it("cuts a request off when an answer fails after its headers are out", async () => {
    const url = await serve((_, response) => {
      response.writeHead(200, { "content-length": "100" });
      response.flushHeaders();
      throw new Error("after the headers");
    });
    // Cut off at once: the client learns it well before its own timeout.
    const cut = fetch(`${url}/x`, { signal: AbortSignal.timeout(5000) }).then((answer) => answer.text());
    await expect(cut).rejects.toThrow(/terminated|other side closed|socket/i);
    const warned = log.lines().map((line) => line.msg);
    expect(warned).toEqual(["answer before the app failed; the request is cut off"]);
  });
});
