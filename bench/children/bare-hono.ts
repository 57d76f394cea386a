import type { Server } from "node:http";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { CEILING_ENVELOPE } from "../ceiling-answer.js";
import { serveParent } from "../ipc.js";

// Hono on @hono/node-server, the gateway's own stack, answering one constant envelope from one route with the
// same headers as the bare `node:http` server: what routing through Hono costs before any work of ours.

let next = 0;
const app = new Hono();
app.get("/resolve/:domain", (c) =>
  c.body(CEILING_ENVELOPE, 200, {
    "content-type": "application/json",
    "access-control-allow-origin": "*",
    "x-request-id": String(++next),
  }),
);
let server: Server | undefined;
const port = await new Promise<number>((listening) => {
  server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, (info) => listening(info.port)) as Server;
});
serveParent({ kind: "ready", url: `http://127.0.0.1:${port}` }, {}, async () => {
  server?.closeAllConnections();
  await new Promise<void>((closed) => server?.close(() => closed()));
});
