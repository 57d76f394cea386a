import { type Server, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Ledger, type Localnet, buildDomainAccounts, identity, startLocalnet } from "../../../src/localnet/index.js";
import { loadConfig } from "../../../src/config.js";
import { TRACES_FLUSH_MS, startGateway } from "../../../src/platform/node/gateway.js";
import { loadTracing } from "../../../src/platform/node/telemetry/load-tracing.js";
import { tracingSettingsFrom } from "../../../src/platform/node/telemetry/tracing-settings.js";
import { createNodeTransports } from "../../../src/rpc/transport/undici.js";
import { captureLog } from "../../../testkit/log-capture.js";
import { type EntryProcess, holdPort, startEntry } from "../../../testkit/entry-process.js";
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from "../../../testkit/otlp-receiver.js";
import { request } from "../../../testkit/stack.js";

// OpenTelemetry on Node: the process entry (src/platform/node/main.ts) as `npm start` runs it, with the
// standard OTEL_* variables, exporting to an OTLP/HTTP receiver started here, in front of a localnet
// whose RPC URL carries credentials in every place a provider puts an API key.

const ENTRY = "src/platform/node/main.ts";
const owner = identity("tracing-owner").address;

/** A client's trace: its id and the span the gateway's server span is a child of. */
const CLIENT_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const CLIENT_SPAN = "00f067aa0ba902b7";
const TRACEPARENT = `00-${CLIENT_TRACE}-${CLIENT_SPAN}-01`;

/** Names resolved by concurrent requests whose reads share RPC batches. */
const BATCHED = ["batched-first", "batched-second"];

/** Text of the RPC URLs that must never be exported: everything but the host. */
const SECRETS = ["keyuser", "keypass", "pathkey", "querykey", "overridepath", "overridequery"];

/** A JSON-RPC server in front of the localnet that notes each request's `traceparent`, whatever its path. */
interface RecordingRpc {
  readonly port: number;
  readonly traceparents: (string | undefined)[];
  /** Each request's `tracestate`, in step with `traceparents`. */
  readonly tracestates: (string | undefined)[];
  /** Each request's body, in step with `traceparents`. */
  readonly bodies: string[];
  /** Milliseconds each answer is held back (0: none). */
  delayMs: number;
  close(): Promise<void>;
}

async function startRecordingRpc(localnet: Localnet): Promise<RecordingRpc> {
  const traceparents: (string | undefined)[] = [];
  const bodies: string[] = [];
  const tracestates: (string | undefined)[] = [];
  const server: Server = createServer((incoming, outgoing) => {
    const traceparent = incoming.headers.traceparent;
    traceparents.push(Array.isArray(traceparent) ? traceparent.join(", ") : traceparent);
    const tracestate = incoming.headers.tracestate;
    tracestates.push(Array.isArray(tracestate) ? tracestate.join(", ") : tracestate);
    const at = bodies.push("") - 1;
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      bodies[at] = Buffer.concat(chunks).toString();
      const forward = () =>
        void fetch(localnet.url, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: Buffer.concat(chunks),
        })
          .then((answer) => answer.text())
          .then((text) => {
            outgoing.writeHead(200, { "content-type": "application/json" });
            outgoing.end(text);
          });
      if (recording.delayMs > 0) setTimeout(forward, recording.delayMs);
      else forward();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const recording: RecordingRpc = {
    port: (server.address() as AddressInfo).port,
    traceparents,
    tracestates,
    bodies,
    delayMs: 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return recording;
}

let localnet: Localnet;
let rpc: RecordingRpc;
let rpcUrl: string;
let overrideUrl: string;

beforeAll(async () => {
  const ledger = new Ledger();
  for (const name of ["traced", ...BATCHED]) {
    for (const { address, account } of buildDomainAccounts({ name, owner })) ledger.setAccount(address, account);
  }
  localnet = await startLocalnet({ ledger });
  rpc = await startRecordingRpc(localnet);
  rpcUrl = `http://keyuser:keypass@127.0.0.1:${rpc.port}/v2/pathkey?api-key=querykey`;
  overrideUrl = `http://localhost:${rpc.port}/overridepath?token=overridequery`;
});
afterAll(async () => {
  await rpc.close();
  await localnet.close();
});

/** The gateway entry with `env`, and its URL once it listens. */
async function startTraced(env: Record<string, string | undefined>): Promise<{ entry: EntryProcess; url: string }> {
  const entry = startEntry([ENTRY], {
    PORT: "0",
    HOST: "127.0.0.1",
    LOG_LEVEL: "info",
    RPC_URL: rpcUrl,
    ALLOW_PRIVATE_RPC_OVERRIDE: "true",
    OTEL_EXPORTER_OTLP_ENDPOINT: undefined,
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: undefined,
    OTEL_TRACES_EXPORTER: undefined,
    OTEL_SDK_DISABLED: undefined,
    OTEL_SERVICE_NAME: undefined,
    ...env,
  });
  const [line] = await entry.waitFor(/^\{.*"msg":"listening".*\}$/m);
  return { entry, url: (JSON.parse(line) as { url: string }).url };
}

describe("tracing on (OTEL_EXPORTER_OTLP_ENDPOINT)", () => {
  let receiver: OtlpReceiver;
  let spans: ReceivedSpan[];
  let exitCode: number | null;
  const traceparentsBefore = { count: 0 };

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    traceparentsBefore.count = rpc.traceparents.length;
    const { entry, url } = await startTraced({
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_SERVICE_NAME: "sns-gateway-under-test",
    });
    try {
      const traced = await request(url, "/resolve/traced.sol", {
        headers: { traceparent: TRACEPARENT, "x-request-id": "traced-request-1" },
      });
      expect(traced.status).toBe(200);
      const missing = await request(url, "/resolve/nobody-owns-this.sol", {
        headers: { "x-request-id": "traced-request-2" },
      });
      expect(missing.status).toBe(404);
      const override = await request(url, `/resolve/traced.sol?rpc=${encodeURIComponent(overrideUrl)}`, {
        headers: { "x-request-id": "traced-request-3" },
      });
      expect(override.status).toBe(200);
      await request(url, "/resolve/traced.sol", {
        method: "PROPFIND",
        headers: { "x-request-id": "traced-request-4" },
      });
    } finally {
      // The spans are still batched: SIGTERM's drain exports them before the process exits.
      await entry.stop();
    }
    exitCode = await entry.exited;
    spans = receiver.spans();
  }, 30_000);
  afterAll(() => receiver.close());

  it("exits cleanly on SIGTERM, having posted OTLP/HTTP JSON to /v1/traces with the service's name", () => {
    expect(exitCode).toBe(0);
    expect(receiver.exports.length).toBeGreaterThan(0);
    for (const posted of receiver.exports) {
      expect(posted.path).toBe("/v1/traces");
      expect(posted.contentType).toBe("application/json");
    }
    expect(new Set(spans.map((span) => span.resource["service.name"]))).toEqual(new Set(["sns-gateway-under-test"]));
  });

  it("a server span per request: the route's pattern, the status, the request id; the client's trace continued", () => {
    const server = spans.filter((span) => span.kind === 2);
    const first = server.find((span) => span.attributes["sns_gateway.request_id"] === "traced-request-1");
    expect(first).toBeDefined();
    expect(first!.name).toBe("GET /resolve/:domain");
    expect(first!.attributes).toMatchObject({
      "http.request.method": "GET",
      "http.route": "/resolve/:domain",
      "http.response.status_code": 200,
    });
    expect(first!.traceId).toBe(CLIENT_TRACE);
    expect(first!.parentSpanId).toBe(CLIENT_SPAN);
    const second = server.find((span) => span.attributes["sns_gateway.request_id"] === "traced-request-2");
    expect(second!.attributes).toMatchObject({ "http.route": "/resolve/:domain", "http.response.status_code": 404 });
    // Without a client traceparent, a trace of its own.
    expect(second!.traceId).not.toBe(CLIENT_TRACE);
    expect(second!.parentSpanId).toBe("");
  });

  it("a method outside the known set is _OTHER, with the original beside it; the span is named HTTP", () => {
    const server = spans.find((span) => span.kind === 2 && span.attributes["http.request.method_original"]);
    expect(server).toBeDefined();
    expect(server!.name.startsWith("HTTP")).toBe(true);
    expect(server!.attributes).toMatchObject({
      "http.request.method": "_OTHER",
      "http.request.method_original": "PROPFIND",
    });
  });

  it("a resolution span, child of the request's server span, and RPC spans, children of the resolution", () => {
    const server = spans.find((span) => span.attributes["sns_gateway.request_id"] === "traced-request-1")!;
    const resolution = spans.find((span) => span.parentSpanId === server.spanId && span.name === "resolve sns");
    expect(resolution).toBeDefined();
    expect(resolution!.traceId).toBe(CLIENT_TRACE);
    expect(resolution!.attributes).toMatchObject({
      "sns.registry": "sns",
      "sns.name": "traced",
      "sns_gateway.outcome": "ok",
    });
    const calls = spans.filter((span) => span.parentSpanId === resolution!.spanId);
    expect(calls.length).toBeGreaterThan(0);
    for (const call of calls) {
      expect(call.kind).toBe(3); // CLIENT
      expect(call.traceId).toBe(CLIENT_TRACE);
      expect(call.name).toBe(`jsonrpc ${call.attributes["rpc.method"]}`);
      expect(call.attributes).toMatchObject({
        "rpc.system": "jsonrpc",
        "server.address": "127.0.0.1",
        "sns_gateway.rpc.endpoint": `127.0.0.1:${rpc.port}`,
        "sns_gateway.rpc.endpoint_kind": "rpc_url",
        "sns_gateway.outcome": "ok",
      });
    }
    const accounts = calls.find((call) => call.attributes["rpc.method"] === "getMultipleAccounts");
    expect(accounts!.attributes["sns_gateway.rpc.keys"]).toBeGreaterThan(0);
    expect(accounts!.attributes["sns_gateway.rpc.calls"]).toBeGreaterThan(0);
  });

  it("a name that does not exist: the resolution's outcome is its code, the server span's status 404", () => {
    const server = spans.find((span) => span.attributes["sns_gateway.request_id"] === "traced-request-2")!;
    const resolution = spans.find((span) => span.parentSpanId === server.spanId && span.name === "resolve sns");
    expect(resolution!.attributes["sns_gateway.outcome"]).toBe("DOMAIN_NOT_FOUND");
  });

  it("an override endpoint's RPC spans name its host and kind only", () => {
    const server = spans.find((span) => span.attributes["sns_gateway.request_id"] === "traced-request-3")!;
    expect(server.attributes["sns_gateway.rpc_override"]).toBe(true);
    const inTrace = spans.filter((span) => span.traceId === server.traceId && span.kind === 3);
    expect(inTrace.length).toBeGreaterThan(0);
    for (const call of inTrace) {
      expect(call.attributes).toMatchObject({
        "sns_gateway.rpc.endpoint": `localhost:${rpc.port}`,
        "sns_gateway.rpc.endpoint_kind": "override",
      });
    }
  });

  it("each RPC request carried the traceparent of its own RPC span", () => {
    const sent = rpc.traceparents.slice(traceparentsBefore.count);
    expect(sent.length).toBeGreaterThan(0);
    const rpcSpans = new Map(spans.filter((span) => span.kind === 3).map((span) => [span.spanId, span]));
    for (const header of sent) {
      const match = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/.exec(header ?? "");
      expect(match, `traceparent ${header}`).not.toBeNull();
      const span = rpcSpans.get(match![2]!);
      expect(span, `an exported RPC span ${match![2]}`).toBeDefined();
      expect(span!.traceId).toBe(match![1]);
    }
    expect(sent.some((header) => header!.includes(CLIENT_TRACE))).toBe(true);
  });

  it("no part of an RPC URL but its host is in any export: no userinfo, path or query", () => {
    const text = receiver.exports.map((posted) => posted.text).join("\n");
    for (const secret of SECRETS) expect(text).not.toContain(secret);
    expect(text).not.toContain("/v2");
  });
});

describe("tracing on: RPC batches that gather the reads of several requests", () => {
  it("each request's trace has its own RPC span; each batch carries the trace of a request whose reads it holds", async () => {
    const receiver = await startOtlpReceiver();
    const before = rpc.traceparents.length;
    const traces = ["1".repeat(32), "2".repeat(32)];
    const keysOf = new Map(
      traces.map((trace, i) => [trace, buildDomainAccounts({ name: BATCHED[i]!, owner }).map((one) => one.address)]),
    );
    // One batch in flight at a time, answered after 300 ms: the second request's reads are queued while the
    // first request's batch is in flight, and leave as that batch settles, in the first request's callbacks.
    rpc.delayMs = 300;
    const { entry, url } = await startTraced({
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      RPC_MAX_IN_FLIGHT: "1",
      BATCH_WINDOW_MS: "1000",
    });
    try {
      const resolve = (i: number) =>
        request(url, `/resolve/${BATCHED[i]}.sol`, { headers: { traceparent: `00-${traces[i]}-${CLIENT_SPAN}-01` } });
      const first = resolve(0);
      // The second request comes once the first one's reads are in flight (held 300 ms by the RPC server).
      while (!rpc.bodies.slice(before).some((body) => body.includes("getMultipleAccounts"))) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      const answers = await Promise.all([first, resolve(1)]);
      expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    } finally {
      rpc.delayMs = 0;
      await entry.stop();
    }
    const spans = receiver.spans();
    await receiver.close();
    for (const trace of traces) {
      const reads = spans.filter(
        (span) => span.traceId === trace && span.kind === 3 && span.attributes["rpc.method"] === "getMultipleAccounts",
      );
      expect(reads.length, `RPC spans in trace ${trace}`).toBeGreaterThan(0);
    }
    const posts = rpc.traceparents
      .slice(before)
      .map((header, i) => ({ trace: /^00-([0-9a-f]{32})-/.exec(header ?? "")?.[1], body: rpc.bodies[before + i]! }))
      .filter((post) => post.body.includes("getMultipleAccounts"));
    expect(posts.length).toBeGreaterThanOrEqual(2);
    for (const post of posts) {
      const keys = keysOf.get(post.trace!);
      expect(keys, `the trace of one of the requests: ${post.trace}`).toBeDefined();
      expect(
        keys!.some((key) => post.body.includes(key)),
        `a read of trace ${post.trace}'s request`,
      ).toBe(true);
    }
  }, 30_000);
});

describe("tracing on: a request its client abandons", () => {
  it("its server span says aborted, with no status, and still gets its route and request id", async () => {
    const receiver = await startOtlpReceiver();
    rpc.delayMs = 600;
    const { entry, url } = await startTraced({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url });
    try {
      const abandoned = fetch(`${url}/resolve/traced.sol`, {
        headers: { "x-request-id": "abandoned-request" },
        signal: AbortSignal.timeout(150),
      });
      await expect(abandoned).rejects.toThrow();
      // The handler's work ends once the RPC answers: its request line comes after the close.
      await entry.waitFor(/"msg":"request".*"abandoned-request"|"abandoned-request".*"msg":"request"/);
    } finally {
      rpc.delayMs = 0;
      await entry.stop();
    }
    const spans = receiver.spans();
    await receiver.close();
    const server = spans.filter((span) => span.kind === 2);
    expect(server).toHaveLength(1);
    expect(server[0]!.name).toBe("GET /resolve/:domain");
    expect(server[0]!.attributes).toMatchObject({
      "error.type": "aborted",
      "http.route": "/resolve/:domain",
      "sns_gateway.request_id": "abandoned-request",
    });
    expect(server[0]!.attributes["http.response.status_code"]).toBeUndefined();
  }, 30_000);
});

describe("tracing on: a client's traceparent or tracestate that is not valid", () => {
  const ZERO_TRACE = "0".repeat(32);
  const INVALID: readonly (readonly [string, Record<string, string>])[] = [
    ["garbage", { traceparent: "not-a-traceparent" }],
    ["an all-zero trace id", { traceparent: `00-${ZERO_TRACE}-${CLIENT_SPAN}-01` }],
    ["version ff", { traceparent: `ff-${CLIENT_TRACE}-${CLIENT_SPAN}-01` }],
    ["a traceparent too long", { traceparent: `00-${CLIENT_TRACE}-${CLIENT_SPAN}-01-${"a".repeat(600)}` }],
  ];

  it("answers as usual in a new trace, and sends nothing of it on", async () => {
    const receiver = await startOtlpReceiver();
    const { entry, url } = await startTraced({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, RESOLVE_CACHE_TTL_MS: "0" });
    const sent = new Map<string, (string | undefined)[]>();
    try {
      for (const [label, headers] of INVALID) {
        const before = rpc.traceparents.length;
        const answer = await request(url, "/resolve/traced.sol", {
          headers: { ...headers, "x-request-id": label.replaceAll(" ", "-") },
        });
        expect(answer.status, label).toBe(200);
        sent.set(label, rpc.traceparents.slice(before));
      }
    } finally {
      await entry.stop();
    }
    const spans = receiver.spans();
    await receiver.close();
    for (const [label] of INVALID) {
      const server = spans.find((span) => span.attributes["sns_gateway.request_id"] === label.replaceAll(" ", "-"));
      expect(server, label).toBeDefined();
      expect(server!.parentSpanId, label).toBe("");
      expect([CLIENT_TRACE, ZERO_TRACE], label).not.toContain(server!.traceId);
      const headers = sent.get(label)!;
      expect(headers.length, label).toBeGreaterThan(0);
      for (const header of headers)
        expect(header, label).toMatch(new RegExp(`^00-${server!.traceId}-[0-9a-f]{16}-01$`));
    }
  }, 30_000);

  it("a tracestate past the W3C limit is cut to 512 characters, a malformed one dropped: the trace goes on", async () => {
    const receiver = await startOtlpReceiver();
    const oversized = Array.from({ length: 40 }, (_, i) => `vendor${i}=${"v".repeat(10)}`).join(",");
    expect(oversized.length).toBeGreaterThan(512);
    const { entry, url } = await startTraced({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, RESOLVE_CACHE_TTL_MS: "0" });
    const sent: { traceparents: (string | undefined)[]; tracestates: (string | undefined)[] }[] = [];
    try {
      for (const tracestate of [oversized, "=,not a member!"]) {
        const before = rpc.traceparents.length;
        const answer = await request(url, "/resolve/traced.sol", { headers: { traceparent: TRACEPARENT, tracestate } });
        expect(answer.status).toBe(200);
        sent.push({ traceparents: rpc.traceparents.slice(before), tracestates: rpc.tracestates.slice(before) });
      }
    } finally {
      await entry.stop();
    }
    await receiver.close();
    for (const { traceparents } of sent) {
      expect(traceparents.length).toBeGreaterThan(0);
      expect(traceparents.every((header) => header?.includes(CLIENT_TRACE))).toBe(true);
    }
    for (const header of sent[0]!.tracestates) {
      expect(header!.length).toBeLessThanOrEqual(512);
      expect(oversized.startsWith(header!)).toBe(true);
    }
    // No tracestate header at all, not an empty one.
    expect(sent[1]!.tracestates.filter((header) => header !== undefined)).toEqual([]);
  }, 30_000);
});

describe("tracing on: a close that fails", () => {
  it("still flushes the spans buffered", async () => {
    const receiver = await startOtlpReceiver();
    const log = captureLog();
    const tracing = (await loadTracing(
      tracingSettingsFrom({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url }),
      "0.0.0",
      log.logger,
    ))!;
    const config = loadConfig({ PORT: "0", HOST: "127.0.0.1", RPC_URL: rpcUrl, TOKENIZED_INDEX: "off" });
    // RPC transports whose close fails: the gateway's dispose rejects.
    const transports = () => {
      const real = tracing.transports(createNodeTransports({ allowPrivate: true, interceptor: tracing.interceptor }));
      return { ...real, close: () => real.close().then(() => Promise.reject(new Error("close failed"))) };
    };
    const gateway = await startGateway(config, log.logger, { transports }, tracing);
    expect((await request(gateway.url, "/resolve/traced.sol")).status).toBe(200);
    await expect(gateway.close()).rejects.toThrow("close failed");
    expect(receiver.spans().some((span) => span.kind === 2)).toBe(true);
    await receiver.close();
  }, 30_000);
});

describe("tracing off (no OTEL_* variable)", () => {
  it("nothing is exported, and RPC requests carry no traceparent, even when the client sent one", async () => {
    const receiver = await startOtlpReceiver();
    const before = rpc.traceparents.length;
    // Not told where the receiver is: the default OTLP address is not reached for either.
    const { entry, url } = await startTraced({});
    try {
      const answer = await request(url, "/resolve/traced.sol", { headers: { traceparent: TRACEPARENT } });
      expect(answer.status).toBe(200);
    } finally {
      await entry.stop();
    }
    expect(rpc.traceparents.length).toBeGreaterThan(before);
    expect(rpc.traceparents.slice(before).filter((header) => header !== undefined)).toEqual([]);
    expect(entry.stdout()).not.toContain("tracing");
    await receiver.close();
  }, 30_000);

  it("the entry imports OpenTelemetry only dynamically: nothing of it loads unless tracing is on", async () => {
    const { metafile } = await build({
      entryPoints: [ENTRY],
      bundle: true,
      platform: "node",
      format: "esm",
      write: false,
      metafile: true,
      logLevel: "silent",
    });
    const inputs = metafile.inputs;
    // The modules the entry reaches through static imports only.
    const reached = new Set<string>();
    const pending = Object.keys(inputs).filter((path) => path.endsWith(ENTRY));
    while (pending.length > 0) {
      const path = pending.pop()!;
      if (reached.has(path)) continue;
      reached.add(path);
      for (const imported of inputs[path]?.imports ?? []) {
        if (imported.kind === "import-statement" || imported.kind === "require-call") pending.push(imported.path);
      }
    }
    expect(reached.size).toBeGreaterThan(50);
    // prom-client (the metrics) requires the OpenTelemetry API for its exemplars; nothing else of it is reached.
    const sdk = [...reached].filter(
      (path) => path.includes("@opentelemetry/") && !path.includes("@opentelemetry/api/"),
    );
    expect(sdk).toEqual([]);
    expect([...reached].filter((path) => path.includes("telemetry/node-tracing.ts"))).toEqual([]);
    expect(Object.keys(inputs).some((path) => path.includes("@opentelemetry/sdk-trace"))).toBe(true);
  });
});

describe("a collector that cannot be reached", () => {
  /** Milliseconds of each of `count` sequential `/resolve` answers, each checked 200. */
  async function answerTimes(url: string, count: number): Promise<number[]> {
    const times: number[] = [];
    for (let i = 0; i < count; i++) {
      const started = performance.now();
      const answer = await request(url, "/resolve/traced.sol", { headers: { traceparent: TRACEPARENT } });
      times.push(performance.now() - started);
      expect(answer.status).toBe(200);
    }
    return times;
  }
  const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

  it("a closed port: answers are 200 at the speed of a gateway without tracing", async () => {
    const closed = await holdPort();
    await closed.release();
    const off = await startTraced({ RESOLVE_CACHE_TTL_MS: "0" });
    const unreachable = await startTraced({
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `http://127.0.0.1:${closed.port}/v1/traces`,
      // The exporter's own variable: a failed export is reported within 1 s instead of its 10 s of retries.
      OTEL_EXPORTER_OTLP_TIMEOUT: "1000",
      RESOLVE_CACHE_TTL_MS: "0",
    });
    try {
      // Alternating rounds, so that a busy machine slows both alike.
      const offTimes: number[] = [];
      const unreachableTimes: number[] = [];
      for (let round = 0; round < 4; round++) {
        offTimes.push(...(await answerTimes(off.url, 10)));
        unreachableTimes.push(...(await answerTimes(unreachable.url, 10)));
      }
      // The exporter's timeout is 10 s: an answer waiting on the collector would be far past these bounds.
      expect(Math.max(...unreachableTimes)).toBeLessThan(1000);
      expect(median(unreachableTimes)).toBeLessThan(3 * median(offTimes) + 20);
      // The batch exported 5 s after the first span fails: the operator is told.
      await unreachable.entry.waitFor(/"msg":"tracing: export failed/);
      expect((await request(unreachable.url, "/resolve/traced.sol")).status).toBe(200);
    } finally {
      await Promise.all([off.entry.stop(), unreachable.entry.stop()]);
    }
    expect(await unreachable.entry.exited).toBe(0);
    // Said once, however many exports fail, naming the collector by its host.
    const warnings = unreachable.entry.stdout().match(/.*"msg":"tracing: export failed.*/g) ?? [];
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(`"collector":"127.0.0.1:${closed.port}"`);
  }, 60_000);

  it("a collector that never answers: SIGTERM still exits within the drain and the flush bound", async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const { port } = silent.address() as AddressInfo;
    const { entry, url } = await startTraced({ OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}` });
    try {
      expect((await request(url, "/resolve/traced.sol")).status).toBe(200);
      const stopping = performance.now();
      process.kill(-entry.child.pid!, "SIGTERM");
      expect(await entry.exited).toBe(0);
      // The flush is cut at TRACES_FLUSH_MS; the margin is for a loaded machine, far below the exporter's 10 s.
      expect(performance.now() - stopping).toBeLessThan(TRACES_FLUSH_MS + 3000);
    } finally {
      await entry.stop();
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  }, 30_000);
});
