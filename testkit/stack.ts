import { type Env, loadConfig } from "../src/config.js";
import { type RunningGateway, startGateway } from "../src/platform/node-gateway.js";
import type { Ledger } from "../src/localnet/ledger.js";
import { type Localnet, startLocalnet } from "../src/localnet/server.js";

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
  readonly gateway: RunningGateway;
  get(path: string, init?: RequestInit): Promise<Answer>;
  close(): Promise<void>;
}

/** A localnet over `ledger` and a gateway pointed at it, both listening on ephemeral loopback ports. */
export async function startStack(ledger: Ledger, env: Env = {}): Promise<Stack> {
  const localnet = await startLocalnet({ ledger });
  const gateway = await startGateway(
    loadConfig({ RPC_URL: localnet.url, PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "silent", ...env }),
  );
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
