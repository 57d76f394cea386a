import { describe, expect, it } from "vitest";
import { startWorkerdGateway } from "../../../testkit/workerd-gateway.js";
import { request } from "../../../testkit/stack.js";

describe("the Workers build under workerd", () => {
  it("answers every request with the configuration error, in the envelope, when a binding is invalid", async () => {
    const gateway = await startWorkerdGateway({ RPC_URL: "ftp://nope", RPC_TIMEOUT_MS: "soon" });
    try {
      const answer = await request(gateway.url, "/resolve/plain.sns");
      expect(answer.status).toBe(500);
      expect(answer.headers.get("content-type")).toBe("application/json");
      expect(answer.body).toEqual({
        s: "error",
        result:
          "invalid configuration: RPC_URL: must be an http(s) URL; RPC_TIMEOUT_MS: must be an integer in [1, 600000]",
      });
    } finally {
      await gateway.close();
    }
  });
});
