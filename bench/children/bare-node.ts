import { createServer } from "node:http";
import { CEILING_ENVELOPE } from "../ceiling-answer.js";
import { serveParent } from "../ipc.js";

// The physical limit of one Node process answering HTTP: `node:http` writing one constant envelope, with the
// headers every gateway answer carries (content type, CORS, a request id), and nothing else.

let next = 0;
const server = createServer((_request, response) => {
  response.writeHead(200, {
    "content-type": "application/json",
    "access-control-allow-origin": "*",
    "x-request-id": String(++next),
    "content-length": String(CEILING_ENVELOPE.length),
  });
  response.end(CEILING_ENVELOPE);
});
server.keepAliveTimeout = 65_000;
await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
const { port } = server.address() as { port: number };
serveParent({ kind: "ready", url: `http://127.0.0.1:${port}` }, {}, async () => {
  server.closeAllConnections();
  await new Promise<void>((closed) => server.close(() => closed()));
});
