import { describe } from "vitest";
import { type Env, loadConfig } from "../src/config.js";
import type { Ledger } from "../src/localnet/ledger.js";
import { type Localnet, startLocalnet } from "../src/localnet/server.js";
import { startGateway } from "../src/platform/node/gateway.js";

/**
 * Which build integration tests talk to: Node (default) or the Workers build
 * under workerd (`GATEWAY_TARGET=workerd`, the second vitest project).
 */
export const GATEWAY_TARGET: "node" | "workerd" = process.env.GATEWAY_TARGET === "workerd" ? "workerd" : "node";
export const onWorkerd = GATEWAY_TARGET === "workerd";

type Group = (name: string, tests: () => void) => void;
const notHere: Group = () => {};
/**
 * A group of tests about one platform's own behaviour (Node's parser, Workers'
 * index object): registered on that target alone, so the other target's run
 * neither runs nor lists it as skipped.
 */
export const describeOnNode: Group = onWorkerd ? notHere : describe;
export const describeOnWorkerd: Group = onWorkerd ? describe : notHere;

/** A gateway under test, whichever the platform. */
export interface TestGateway {
  readonly url: string;
  close(): Promise<void>;
}

/** A gateway configured from `env` (as Node's environment or Workers' bindings), on loopback. */
export async function startTestGateway(env: Env): Promise<TestGateway> {
  const settings = { PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "silent", ...env };
  // Loaded on workerd only: Miniflare and esbuild cost every file on the Node target about a second to import.
  if (onWorkerd) return (await import("./workerd-gateway.js")).startWorkerdGateway(settings);
  return startGateway(loadConfig(settings));
}

export interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly body: unknown;
  readonly text: string;
}

/** Plain HTTP GET (or other method) against a running server. */
export async function request(base: string, path: string, init?: RequestInit): Promise<Answer> {
  const response = await fetch(base + path, init);
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, body, text };
}

export interface Stack {
  readonly localnet: Localnet;
  readonly gateway: TestGateway;
  get(path: string, init?: RequestInit): Promise<Answer>;
  close(): Promise<void>;
}

/** A localnet over `ledger` and a gateway pointed at it, both listening on ephemeral loopback ports. */
export async function startStack(ledger: Ledger, env: Env = {}): Promise<Stack> {
  const localnet = await startLocalnet({ ledger });
  const gateway = await startTestGateway({ RPC_URL: localnet.url, ...env });
  return {
    localnet,
    gateway,
    get: (path, init) => request(gateway.url, path, init),
    async close() {
      await gateway.close();
      await localnet.close();
    },
  };
}
