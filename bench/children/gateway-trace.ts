import { subscribe } from "node:diagnostics_channel";
import type { IncomingMessage } from "node:http";
import type { Socket } from "node:net";
import { loadConfig } from "../../src/config.js";
import { startGateway } from "../../src/platform/node/gateway.js";
import { createNodeLog } from "../../src/platform/node/log.js";
import { serveParent } from "../ipc.js";

// The gateway child of children/gateway.ts, plus a timeline of what it does under load (bench/wave-trace.ts):
// when each request was parsed and its answer finished, and when each RPC exchange left and came back.
// Times are epoch milliseconds (timeOrigin + now) so they line up with the parent's.

const REQUEST = 1;
const FINISH = 2;
const RPC_SENT = 3;
const RPC_HEADERS = 4;
const RPC_DONE = 5;

let recording = false;
const kinds: number[] = [];
const times: number[] = [];
const ports: number[] = [];
/**
 * Turns of the event loop: events with the same number happened before the same check phase (one poll
 * phase's I/O callbacks and their microtasks, e.g. one RPC reply and the answers it released).
 */
const turns: number[] = [];
let turn = 0;
let turnOpen = false;
const origin = performance.timeOrigin;

function record(kind: number, port: number): void {
  if (!recording) return;
  if (!turnOpen) {
    turnOpen = true;
    turn++;
    setImmediate(() => {
      turnOpen = false;
    });
  }
  kinds.push(kind);
  times.push(origin + performance.now());
  ports.push(port);
  turns.push(turn);
}

const portOf = (socket: Socket | undefined) => socket?.remotePort ?? 0;
subscribe("http.server.request.start", (message) => {
  const { request } = message as { request: IncomingMessage };
  record(REQUEST, portOf(request.socket));
});
subscribe("http.server.response.finish", (message) => {
  const { request } = message as { request: IncomingMessage };
  record(FINISH, portOf(request.socket));
});
subscribe("undici:request:create", () => record(RPC_SENT, 0));
subscribe("undici:request:headers", () => record(RPC_HEADERS, 0));
subscribe("undici:request:trailers", () => record(RPC_DONE, 0));

let loopAtStart = performance.eventLoopUtilization();

const config = loadConfig(process.env);
const running = await startGateway(config, createNodeLog(config.logLevel).logger);
serveParent(
  { kind: "ready", url: running.url },
  {
    traceStart: () => {
      loopAtStart = performance.eventLoopUtilization();
      kinds.length = times.length = ports.length = turns.length = 0;
      recording = true;
    },
    traceStop: () => {
      recording = false;
      return { kinds, times, ports, turns, loopUtilization: performance.eventLoopUtilization(loopAtStart).utilization };
    },
  },
  () => running.close(),
);
