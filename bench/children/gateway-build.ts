import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { serveParent } from "../ipc.js";

// Gateway child running another build of this project (BENCH_GATEWAY_BUILD: a directory holding its
// built `dist/` and its own node_modules, e.g. a worktree of an older commit), so that `npm run bench`
// can measure it with this harness. It starts the build's own `startGateway` with the build's own pino
// at LOG_LEVEL, writing to stdout as that build's entry did; entry and config modules are found where
// the project has kept them over time.

interface OtherBuild {
  loadConfig(env: NodeJS.ProcessEnv): { readonly logLevel: string };
  startGateway(config: unknown, logger: unknown): Promise<{ readonly url: string; close(): Promise<void> }>;
}

const dir = process.env.BENCH_GATEWAY_BUILD;
if (!dir) throw new Error("BENCH_GATEWAY_BUILD is not set");
const firstOf = (paths: string[]) => {
  const found = paths.map((path) => resolve(dir, path)).find((path) => existsSync(path));
  if (!found) throw new Error(`${dir}: none of ${paths.join(", ")}`);
  return import(pathToFileURL(found).href);
};
const { startGateway } = (await firstOf([
  "dist/platform/node/gateway.js",
  "dist/platform/node-gateway.js",
  "dist/gateway.js",
])) as OtherBuild;
const { loadConfig } = (await firstOf(["dist/config.js"])) as OtherBuild;
const { pino } = createRequire(resolve(dir, "package.json"))("pino") as {
  pino: (options: { level: string }) => unknown;
};

const config = loadConfig(process.env);
const running = await startGateway(config, pino({ level: config.logLevel }));
serveParent({ kind: "ready", url: running.url }, {}, () => running.close());
