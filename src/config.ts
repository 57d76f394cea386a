import { z } from "zod";
import type { PdaPolicy } from "./sns/queries/resolve.js";
import type { BudgetLimits } from "./rpc/request-budget.js";
import { tryDecodePublicKey } from "./sns/bytes.js";

/** The spellings of a boolean setting, in the order its error message lists them. */
const FLAG_SPELLINGS = ["0", "1", "true", "false", ""] as const;

const flag = z
  .stringbool({ truthy: ["true", "1"], falsy: ["false", "0", ""], case: "sensitive" })
  .optional()
  .transform((value) => value ?? false);

/** A bad boolean setting's message lists its spellings (stringbool's own lists truthy ones first). */
const flagError: z.core.$ZodErrorMap = (issue) =>
  issue.code === "invalid_value" && issue.expected === "stringbool"
    ? `Invalid option: expected one of ${FLAG_SPELLINGS.map((spelling) => JSON.stringify(spelling)).join("|")}`
    : undefined;

/** An integer setting: unset or blank is `fallback`; anything else must read as an integer in range. */
const intFrom = (fallback: number, min: number, max: number) => {
  const error = `must be an integer in [${min}, ${max}]`;
  return z.preprocess(
    (value) => (typeof value === "string" && value.trim() === "" ? undefined : value),
    z.coerce
      .number({ error })
      .int({ error, abort: true })
      .min(min, { error, abort: true })
      .max(max, { error })
      .default(fallback),
  );
};

/** An http(s) URL, as the URL standard parses it (`normalize`: `http:/host` is `http://host/` there too). */
const httpUrl = z.url({ protocol: /^https?$/, normalize: true });

const pdaPolicy = z
  .string()
  .optional()
  .transform((value, ctx): PdaPolicy => {
    const text = value?.trim() ?? "";
    if (text === "" || text === "none") return { kind: "none" };
    if (text === "any") return { kind: "any" };
    const ids = text.split(",").map((id) => id.trim());
    if (ids.some((id) => !tryDecodePublicKey(id))) {
      ctx.addIssue({ code: "custom", message: "must be 'any' or a comma-separated list of program ids" });
      return z.NEVER;
    }
    return { kind: "programs", programIds: new Set(ids) };
  });

/** One http(s) URL, or several separated by commas (endpoints in order of preference, see src/rpc/failover/). */
const rpcUrls = z
  .string()
  .optional()
  .transform((value, ctx): readonly string[] => {
    const urls = (value ?? "")
      .split(",")
      .map((url) => url.trim())
      .filter((url) => url !== "");
    if (urls.some((url) => !httpUrl.safeParse(url).success)) {
      ctx.addIssue({
        code: "custom",
        message: urls.length > 1 ? "must be http(s) URLs separated by commas" : "must be an http(s) URL",
      });
      return z.NEVER;
    }
    if (new Set(urls.map((url) => new URL(url).href)).size !== urls.length) {
      ctx.addIssue({ code: "custom", message: "names the same URL twice" });
      return z.NEVER;
    }
    return urls;
  });

const hostList = z
  .string()
  .optional()
  .transform((value, ctx) => {
    const hosts = (value ?? "")
      .split(",")
      .map((host) => host.trim().toLowerCase().replace(/\.$/, ""))
      .filter((host) => host !== "");
    if (hosts.some((host) => !/^[a-z0-9.-]+$/.test(host))) {
      ctx.addIssue({ code: "custom", message: "must be a comma-separated list of host names" });
      return z.NEVER;
    }
    return hosts.length > 0 ? new Set(hosts) : undefined;
  });

const headerName = z
  .string()
  .optional()
  .transform((value, ctx) => {
    const name = value?.trim().toLowerCase() ?? "";
    if (name === "") return undefined;
    if (!/^[a-z0-9-]+$/.test(name)) {
      ctx.addIssue({ code: "custom", message: "must be an HTTP header name" });
      return z.NEVER;
    }
    return name;
  });

/**
 * JSON-RPC calls to `RPC_URL` one client may cause per minute (RPC_RATE_LIMIT). Measured against the
 * localnet (test/http/bulk-cost.test.ts): a lookup costs 1–4 calls, a bulk request of 1,000 names 40–41,
 * of 1,000 tokenized names 1,050. 20,000 is a lookup every 12 ms for the whole minute, far past any
 * wallet, or 19 bulk requests of tokenized names a minute, where 256 of them at once caused 67,200.
 */
const RPC_RATE_LIMIT_DEFAULT = 20_000;

const schema = z.object({
  PORT: intFrom(3000, 0, 65535),
  HOST: z
    .string()
    .optional()
    .transform((v) => v?.trim() || "0.0.0.0"),
  RPC_URL: rpcUrls,
  RPC_TIMEOUT_MS: intFrom(5000, 1, 600_000),
  RPC_HEDGE_MS: intFrom(0, 0, 600_000),
  ALLOW_PRIVATE_RPC_OVERRIDE: flag,
  ALLOW_PDA_OWNERS: pdaPolicy,
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).optional().default("info"),
  RESOLVE_CACHE_TTL_MS: intFrom(0, 0, 3_600_000),
  CACHE_TTL_SECONDS: intFrom(10, 0, 31_536_000),
  BATCH_WINDOW_MS: intFrom(1, 0, 1000),
  RPC_MAX_IN_FLIGHT: intFrom(4, 1, 1024),
  RPC_SETTLE_SLICE: intFrom(32, 0, 100_000),
  SHUTDOWN_GRACE_MS: intFrom(10_000, 0, 600_000),
  RPC_OVERRIDE: z.enum(["on", "off"]).optional().default("on"),
  TOKENIZED_INDEX: z.enum(["on", "off"]).optional().default("on"),
  TOKENIZED_INDEX_MAX_MB: intFrom(32, 1, 4096),
  TOKENIZED_INDEX_FLOOR_GIVE_UP_MS: intFrom(10_000, 100, 600_000),
  RPC_OVERRIDE_HOSTS: hostList,
  RPC_OVERRIDE_RATE_LIMIT: intFrom(1200, 0, 100_000_000),
  RPC_RATE_LIMIT: intFrom(RPC_RATE_LIMIT_DEFAULT, 0, 100_000_000),
  RPC_BUDGET_MS: intFrom(30_000, 100, 600_000),
  RPC_BUDGET_CALLS: intFrom(5000, 1, 10_000_000),
  RPC_BUDGET_BYTES: intFrom(256 * 1024 * 1024, 1024, 2 ** 40),
  RPC_BUDGET_ITEMS: intFrom(200_000, 1, 100_000_000),
  BULKHEAD_RECORDS: intFrom(600, 1, 1_000_000),
  BULKHEAD_WALLETS: intFrom(1000, 1, 1_000_000),
  BULKHEAD_OVERRIDE_LISTS: intFrom(32, 1, 100_000),
  RPC_OVERRIDE_BUDGET_MS: intFrom(10_000, 100, 600_000),
  RPC_OVERRIDE_BUDGET_CALLS: intFrom(200, 1, 10_000_000),
  RPC_OVERRIDE_BUDGET_BYTES: intFrom(16 * 1024 * 1024, 1024, 2 ** 40),
  RPC_OVERRIDE_BUDGET_ITEMS: intFrom(20_000, 1, 100_000_000),
  CLIENT_IP_HEADER: headerName,
  HEADERS_TIMEOUT_MS: intFrom(10_000, 1000, 120_000),
  NFT_HOLDER_TTL_MS: intFrom(0, 0, 60_000),
  METRICS: z.enum(["on", "off"]).optional().default("on"),
  SOL_SRS_RESOLUTION: z.enum(["on", "off"]).optional().default("off"),
});

export type Env = Record<string, string | undefined>;

export interface GatewayConfig {
  readonly port: number;
  readonly host: string;
  /** `RPC_URL`: none, one, or several endpoints in order of preference (failover). */
  readonly rpcUrls: readonly string[];
  readonly rpcTimeoutMs: number;
  /** With several endpoints, a read unanswered after this long also goes to the next one; 0: off. */
  readonly rpcHedgeMs: number;
  readonly allowPrivateRpcOverride: boolean;
  readonly pdaPolicy: PdaPolicy;
  readonly logLevel: string;
  readonly resolveCacheTtlMs: number;
  readonly cacheTtlSeconds: number;
  readonly batchWindowMs: number;
  readonly rpcMaxInFlight: number;
  /** Account reads of one batch reply settled per event-loop turn while the loop has idle time (Node); 0: all at once. */
  readonly rpcSettleSlice: number;
  readonly shutdownGraceMs: number;
  readonly rpcOverride: boolean;
  /** `/domains` on RPC_URL reads tokenized domains from an in-memory index of the tokenizer. */
  readonly tokenizedIndex: boolean;
  /** Memory the tokenized index may take, in MiB (64 bytes per record); past it, `/domains` scans. */
  readonly tokenizedIndexMaxMb: number;
  /** How long every endpoint may refuse the index's floor (-32016) before it is dropped to what they serve. */
  readonly tokenizedIndexFloorGiveUpMs: number;
  /** Host names an `rpc` override may name; undefined: any public host. */
  readonly rpcOverrideHosts: ReadonlySet<string> | undefined;
  /** JSON-RPC calls that requests with `rpc` may cause per minute per client IP; 0: unlimited. */
  readonly rpcOverrideRateLimit: number;
  /** JSON-RPC calls to `RPC_URL` one client's requests may cause per minute (RPC_RATE_LIMIT); 0: unlimited. */
  readonly rpcRateLimit: number;
  /** What one request on `RPC_URL` may cause (RPC_BUDGET_*). */
  readonly rpcBudget: BudgetLimits;
  /** What one request naming an `rpc` override may cause (RPC_OVERRIDE_BUDGET_*). */
  readonly rpcOverrideBudget: BudgetLimits;
  /** Work under way at once on the heavy routes (BULKHEAD_*): records, wallets, override list requests. */
  readonly bulkheads: { readonly records: number; readonly wallets: number; readonly overrideLists: number };
  /** Header carrying the client IP (set by a trusted proxy); undefined: the socket's address. */
  readonly clientIpHeader: string | undefined;
  /** Time a client has to send a request's headers (and twice that for the whole request). */
  readonly headersTimeoutMs: number;
  /** How long a tokenized domain's NFT holder may be reused by /resolve; 0: looked up every time. */
  readonly nftHolderTtlMs: number;
  /** Prometheus metrics kept and served at `GET /metrics`. */
  readonly metrics: boolean;
  /** `.sol` names resolve through their SRS record; `/safe-resolve` cross-checks it with the name service. */
  readonly solSrsResolution: boolean;
}

export class ConfigError extends Error {
  override readonly name = "ConfigError";
}

/** Reads configuration from environment variables; throws ConfigError listing every bad one. */
export function loadConfig(env: Env): GatewayConfig {
  const parsed = schema.safeParse(env, { error: flagError });
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    throw new ConfigError(`invalid configuration: ${problems.join("; ")}`);
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    rpcUrls: e.RPC_URL,
    rpcTimeoutMs: e.RPC_TIMEOUT_MS,
    rpcHedgeMs: e.RPC_HEDGE_MS,
    allowPrivateRpcOverride: e.ALLOW_PRIVATE_RPC_OVERRIDE,
    pdaPolicy: e.ALLOW_PDA_OWNERS,
    logLevel: e.LOG_LEVEL,
    resolveCacheTtlMs: e.RESOLVE_CACHE_TTL_MS,
    cacheTtlSeconds: e.CACHE_TTL_SECONDS,
    batchWindowMs: e.BATCH_WINDOW_MS,
    rpcMaxInFlight: e.RPC_MAX_IN_FLIGHT,
    rpcSettleSlice: e.RPC_SETTLE_SLICE,
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    rpcOverride: e.RPC_OVERRIDE === "on",
    tokenizedIndex: e.TOKENIZED_INDEX === "on",
    tokenizedIndexMaxMb: e.TOKENIZED_INDEX_MAX_MB,
    tokenizedIndexFloorGiveUpMs: e.TOKENIZED_INDEX_FLOOR_GIVE_UP_MS,
    rpcOverrideHosts: e.RPC_OVERRIDE_HOSTS,
    rpcOverrideRateLimit: e.RPC_OVERRIDE_RATE_LIMIT,
    rpcRateLimit: e.RPC_RATE_LIMIT,
    bulkheads: { records: e.BULKHEAD_RECORDS, wallets: e.BULKHEAD_WALLETS, overrideLists: e.BULKHEAD_OVERRIDE_LISTS },
    rpcBudget: {
      deadlineMs: e.RPC_BUDGET_MS,
      maxCalls: e.RPC_BUDGET_CALLS,
      maxBytes: e.RPC_BUDGET_BYTES,
      maxItems: e.RPC_BUDGET_ITEMS,
    },
    rpcOverrideBudget: {
      deadlineMs: e.RPC_OVERRIDE_BUDGET_MS,
      maxCalls: e.RPC_OVERRIDE_BUDGET_CALLS,
      maxBytes: e.RPC_OVERRIDE_BUDGET_BYTES,
      maxItems: e.RPC_OVERRIDE_BUDGET_ITEMS,
    },
    clientIpHeader: e.CLIENT_IP_HEADER,
    headersTimeoutMs: e.HEADERS_TIMEOUT_MS,
    nftHolderTtlMs: e.NFT_HOLDER_TTL_MS,
    metrics: e.METRICS === "on",
    solSrsResolution: e.SOL_SRS_RESOLUTION === "on",
  };
}

/** Every environment variable the gateway reads, as listed in the README's Configuration table. */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(schema.shape);
