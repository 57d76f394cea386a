import "../../testkit/sdk-quiet.js";
import { Agent, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { createBaselineApp } from "../baseline/app.js";
import { serveParent } from "../ipc.js";

// Baseline child: the upstream-equivalent server on its own port and process.

const rpcUrl = process.env.RPC_URL;
if (!rpcUrl) throw new Error("RPC_URL is required");
const sharedAgent = process.env.BASELINE_SHARED_AGENT === "1";
const app = createBaselineApp({
  rpcUrl,
  ...(sharedAgent ? { httpAgent: new Agent({ keepAlive: true, maxSockets: 256 }) } : {}),
});
const server = await new Promise<Server>((resolve, reject) => {
  const s = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, () => resolve(s as Server));
  (s as Server).once("error", reject);
});
const { port } = server.address() as AddressInfo;

serveParent({ kind: "ready", url: `http://127.0.0.1:${port}` }, {}, () => {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
});
