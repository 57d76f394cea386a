import { loadConfig } from "../../src/config.js";
import { startGateway } from "../../src/platform/node/gateway.js";
import { createNodeLog } from "../../src/platform/node/log.js";
import { curveMemoStats } from "../../src/sns/curve.js";
import { derivationMemoStats } from "../../src/sns/derive.js";
import { serveParent } from "../ipc.js";

// Gateway child, configured from the environment and logging exactly like `node dist/platform/node/main.js`.
// Its stdout (the pino request log) is /dev/null: formatting and writing each
// log line stays part of the measured cost, keeping it on screen would not be.

const config = loadConfig(process.env);
const running = await startGateway(config, createNodeLog(config.logLevel).logger);
serveParent(
  { kind: "ready", url: running.url },
  // What the resolve path's memos hold: entries and estimated bytes against their budgets.
  { memos: () => ({ ...derivationMemoStats(), ...curveMemoStats() }) },
  () => running.close(),
);
