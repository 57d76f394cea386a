import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ByteBudget } from "../../src/rpc/byte-budget.js";
import { OverloadedError, RpcEndpointRefusedError, RpcError } from "../../src/rpc/errors.js";
import { createPublicOnlyDispatcher, createUndiciTransport as createHttpTransport, publicOnlyLookup } from "../../src/rpc/transport/undici.js";
import { createTransport } from "../../src/rpc/transport/contract.js";
import { fetchPost } from "../../src/rpc/transport/fetch.js";
import { Ledger, type Localnet, startLocalnet } from "../../src/localnet/index.js";

let localnet: Localnet;
beforeAll(async () => {
  localnet = await startLocalnet({ ledger: new Ledger() });
});
afterAll(() => localnet.close());

/** A post through `dispatcher` to `host` at the localnet's port fails as refused, and the localnet sees nothing. */
async function expectRefusedAtConnect(host: string, dispatcher: ReturnType<typeof createPublicOnlyDispatcher>): Promise<void> {
  const transport = createHttpTransport(`http://${host}:${new URL(localnet.url).port}`, {
    dispatcher,
    timeoutMs: 2000,
    maxResponseBytes: 1 << 20,
    budget: new ByteBudget(1 << 24),
  });
  localnet.resetStats();
  await expect(transport.post('{"jsonrpc":"2.0","id":1,"method":"getSlot"}')).rejects.toBeInstanceOf(RpcEndpointRefusedError);
  expect(localnet.stats.httpRequests).toBe(0);
  await dispatcher.close();
}

describe("public-only connections", () => {
  it("refuses names whose DNS answer is not public", async () => {
    const outcome = await new Promise<unknown>((resolve) =>
      publicOnlyLookup("localhost", {}, (error, address) => resolve(error ?? address)),
    );
    expect(outcome).toBeInstanceOf(RpcEndpointRefusedError);
  });

  it("refuses at connect time, before a byte is sent (DNS rebinding included)", async () => {
    // Bypasses the URL rules on purpose: the connect-time guard must hold on its own.
    await expectRefusedAtConnect("localhost", createPublicOnlyDispatcher());
  });

  it("caps the size of an answer", async () => {
    const { Agent } = await import("undici");
    const dispatcher = new Agent();
    localnet.setFault({ kind: "garbage", body: "x".repeat(4096) });
    const budget = new ByteBudget(1 << 24);
    const transport = createHttpTransport(localnet.url, { dispatcher, timeoutMs: 2000, maxResponseBytes: 1024, budget });
    const failure = await transport.post("{}").catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(RpcError);
    expect((failure as RpcError).kind).toBe("too-large");
    expect(budget.inUse).toBe(0);
    localnet.setFault(null);
    await dispatcher.close();
  });

  it("refuses an answer that does not fit the memory budget, and gives the budget back", async () => {
    const { Agent } = await import("undici");
    const dispatcher = new Agent();
    localnet.setFault({ kind: "garbage", body: JSON.stringify({ jsonrpc: "2.0", id: 1, result: "y".repeat(8192) }) });
    const budget = new ByteBudget(4096);
    const transport = createHttpTransport(localnet.url, { dispatcher, timeoutMs: 2000, maxResponseBytes: 1 << 20, budget });
    const failure = await transport.post("{}").catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OverloadedError);
    expect(budget.inUse).toBe(0);
    const roomy = createHttpTransport(localnet.url, {
      dispatcher,
      timeoutMs: 2000,
      maxResponseBytes: 1 << 20,
      budget: new ByteBudget(1 << 20),
    });
    await expect(roomy.post("{}")).resolves.toMatchObject({ result: "y".repeat(8192) });
    localnet.setFault(null);
    await dispatcher.close();
  });
});

describe("Node exchange faults", () => {
  const limits = (timeoutMs = 2000) => ({ timeoutMs, maxResponseBytes: 1 << 20, budget: new ByteBudget(1 << 24) });
  const getSlot = '{"jsonrpc":"2.0","id":1,"method":"getSlot"}';

  it("maps an error status, a hang and a refused port to typed errors, and answers again afterwards", async () => {
    const { Agent } = await import("undici");
    const dispatcher = new Agent();
    const transport = createHttpTransport(localnet.url, { dispatcher, ...limits(300) });
    localnet.resetStats();
    localnet.setFault({ kind: "http-status", status: 429, body: "slow down" });
    await expect(transport.post(getSlot)).rejects.toMatchObject({ kind: "http-status", message: "RPC answered HTTP 429" });
    localnet.setFault({ kind: "hang" });
    await expect(transport.post(getSlot)).rejects.toMatchObject({ kind: "timeout", message: "no RPC answer within 300 ms" });
    localnet.setFault(null);
    await expect(transport.post(getSlot)).resolves.toMatchObject({ jsonrpc: "2.0", id: 1 });
    const server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    server.close();
    const refused = createHttpTransport(`http://127.0.0.1:${port}`, { dispatcher, ...limits() });
    await expect(refused.post(getSlot)).rejects.toMatchObject({ kind: "network" });
    await dispatcher.close();
  });

  it("reads the answer after an informational status, and refuses a declared length over the limit", async () => {
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, result: 7 });
    const server = http.createServer((request, response) => {
      request.resume();
      if (request.url === "/large") {
        response.writeHead(200, { "content-length": String(2 << 20) }).write("[");
        return;
      }
      response.writeEarlyHints({ link: "</x>; rel=preload" });
      response.writeHead(200, { "content-type": "application/json" }).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const { Agent } = await import("undici");
    const dispatcher = new Agent();
    const budget = new ByteBudget(1 << 24);
    await expect(createHttpTransport(`http://127.0.0.1:${port}/`, { dispatcher, ...limits(), budget }).post(getSlot)).resolves.toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: 7,
    });
    const large = createHttpTransport(`http://127.0.0.1:${port}/large`, { dispatcher, ...limits(), budget });
    await expect(large.post(getSlot)).rejects.toMatchObject({ kind: "too-large" });
    expect(budget.inUse).toBe(0);
    await dispatcher.close();
    server.closeAllConnections();
    server.close();
  });
});

// The Workers transport (standard fetch) shares the limits; Node's own fetch runs it here.
describe("fetch transport", () => {
  const limits = (maxResponseBytes: number, budget = new ByteBudget(1 << 24)) => ({ timeoutMs: 2000, maxResponseBytes, budget });

  it("answers, and caps the size of an answer with the budget given back", async () => {
    const ok = createTransport(localnet.url, limits(1 << 20), fetchPost);
    await expect(ok.post('{"jsonrpc":"2.0","id":1,"method":"getSlot"}')).resolves.toMatchObject({ jsonrpc: "2.0" });
    localnet.setFault({ kind: "garbage", body: "x".repeat(4096) });
    const budget = new ByteBudget(1 << 24);
    const failure = await createTransport(localnet.url, limits(1024, budget), fetchPost).post("{}").catch((e: unknown) => e);
    expect((failure as RpcError).kind).toBe("too-large");
    expect(budget.inUse).toBe(0);
    localnet.setFault(null);
  });

  it("does not follow redirects", async () => {
    const server = http.createServer((_, response) => response.writeHead(307, { location: localnet.url }).end());
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    localnet.resetStats();
    const failure = await createTransport(`http://127.0.0.1:${port}`, limits(1 << 20), fetchPost)
      .post('{"jsonrpc":"2.0","id":1,"method":"getSlot"}')
      .catch((e: unknown) => e);
    expect((failure as RpcError).kind).toBe("http-status");
    expect(localnet.stats.httpRequests).toBe(0);
    server.close();
  });
});

describe("connect-time DNS check of IPv6 answers carrying an IPv4", () => {
  // A name whose DNS answer is one of these forms: the undici connector must refuse it before a byte is sent.
  it.each([
    ["IPv4-mapped", "::ffff:169.254.169.254"],
    ["IPv4-translated", "::ffff:0:a9fe:a9fe"],
    ["IPv4-compatible", "::127.0.0.1"],
    ["6to4", "2002:a9fe:a9fe::1"],
    ["Teredo (client inverted)", "2001:0:4136:e378:8000:63bf:80ff:fffe"],
    ["NAT64 well-known", "64:ff9b::a9fe:a9fe"],
    ["NAT64 local-use", "64:ff9b:1::a9fe:a9fe"],
  ])("%s (%s) is refused, nothing sent", async (_, address) => {
    const { publicOnlyLookupVia } = await import("../../src/rpc/transport/undici.js");
    const answers = (_host: string, _options: unknown, callback: (error: null, addresses: { address: string; family: number }[]) => void) =>
      callback(null, [{ address, family: 6 }]);
    await expectRefusedAtConnect("rpc.example.com", createPublicOnlyDispatcher(publicOnlyLookupVia(answers as never)));
  });

  it("a public answer in one of these forms is let through to the connection", async () => {
    const { publicOnlyLookupVia } = await import("../../src/rpc/transport/undici.js");
    let looked = "";
    const answers = (host: string, _options: unknown, callback: (error: null, addresses: { address: string; family: number }[]) => void) => {
      looked = host;
      // Public by its carried IPv4, and actually where the localnet listens: 127.0.0.1 would be refused, so answer
      // the public form and let the connection fail or succeed at the socket level.
      callback(null, [{ address: "::ffff:8.8.8.8", family: 6 }]);
    };
    const lookup = publicOnlyLookupVia(answers as never);
    const outcome = await new Promise<unknown>((resolve) => lookup("rpc.example.com", {}, (error, address) => resolve(error ?? address)));
    expect(looked).toBe("rpc.example.com");
    expect(outcome).toBe("::ffff:8.8.8.8");
  });
});
