import { readFileSync } from "node:fs";
import { DEMO_FIXTURE_PATH, type Localnet, loadFixture, startLocalnet } from "../../src/localnet/index.js";

export const demoFixture: unknown = JSON.parse(readFileSync(DEMO_FIXTURE_PATH, "utf8"));

export function startDemoLocalnet(): Promise<Localnet> {
  return startLocalnet({ ledger: loadFixture(demoFixture) });
}

export interface RawResponse {
  status: number;
  contentType: string | null;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read any field of it; `expect` checks them
  json(): any;
}

/** POSTs a raw body, so tests see exactly what a node would send back. */
export async function post(url: string, body: unknown, contentType = "application/json"): Promise<RawResponse> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": contentType },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await response.text();
  const { status, headers } = response;
  return { status, contentType: headers.get("content-type"), text, json: () => JSON.parse(text) };
}

let nextId = 1;

/** One JSON-RPC call; returns the parsed envelope. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as `RawResponse.json`
export async function call(url: string, method: string, params?: unknown[]): Promise<any> {
  const response = await post(url, { jsonrpc: "2.0", id: nextId++, method, ...(params ? { params } : {}) });
  return response.json();
}
