import { z } from "zod";
import type { PdaPolicy } from "./sns/queries/resolve.js";
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
  .transform((value, ctx): ReadonlySet<string> | undefined => {
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

/** Hosts the legacy profile answers (LEGACY_HOSTS): names, or `*` for every host; empty: none. */
export interface LegacyHosts {
  readonly all: boolean;
  readonly hosts: ReadonlySet<string>;
}

const legacyHostList = z
  .string()
  .optional()
  .transform((value, ctx): LegacyHosts | undefined => {
    const hosts = (value ?? "")
      .split(",")
      .map((host) => host.trim().toLowerCase().replace(/\.$/, ""))
      .filter((host) => host !== "");
    if (hosts.some((host) => host !== "*" && !/^[a-z0-9.-]+$/.test(host))) {
      ctx.addIssue({ code: "custom", message: "must be `*` or a comma-separated list of host names" });
      return z.NEVER;
    }
    if (hosts.length === 0) return undefined;
    return { all: hosts.includes("*"), hosts: new Set(hosts) };
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

/** `on` or `off`, read as a boolean. */
const onOff = (fallback: "on" | "off") =>
  z
    .enum(["on", "off"])
    .optional()
    .default(fallback)
    .transform((value) => value === "on");

/** A setting: the environment variable it is read from, and how its text is read. */
interface Setting<S extends z.ZodType = z.ZodType> {
  readonly variable: string;
  readonly schema: S;
}

const fromEnv = <S extends z.ZodType>(variable: string, schema: S): Setting<S> => ({ variable, schema });

/** Settings by configuration field; a nested table is a group of fields (`rpcBudget.maxCalls`). */
interface SettingTable {
  readonly [field: string]: Setting | SettingTable;
}

const isSetting = (entry: Setting | SettingTable): entry is Setting => entry.schema instanceof z.ZodType;

/**
 * Every setting, declared once: its field, its variable, how it is read (default, range, coercion) and
 * what it means. The order is the order in which a ConfigError lists bad variables.
 */
const SETTINGS = {
  port: fromEnv("PORT", intFrom(3000, 0, 65535)),
  host: fromEnv(
    "HOST",
    z
      .string()
      .optional()
      .transform((v) => v?.trim() || "0.0.0.0"),
  ),
  /** `RPC_URL`: none, one, or several endpoints in order of preference (failover). */
  rpcUrls: fromEnv("RPC_URL", rpcUrls),
  rpcTimeoutMs: fromEnv("RPC_TIMEOUT_MS", intFrom(5000, 1, 600_000)),
  /** With several endpoints, a read unanswered after this long also goes to the next one; 0: off. */
  rpcHedgeMs: fromEnv("RPC_HEDGE_MS", intFrom(0, 0, 600_000)),
  allowPrivateRpcOverride: fromEnv("ALLOW_PRIVATE_RPC_OVERRIDE", flag),
  pdaPolicy: fromEnv("ALLOW_PDA_OWNERS", pdaPolicy),
  logLevel: fromEnv(
    "LOG_LEVEL",
    z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).optional().default("info"),
  ),
  resolveCacheTtlMs: fromEnv("RESOLVE_CACHE_TTL_MS", intFrom(0, 0, 3_600_000)),
  cacheTtlSeconds: fromEnv("CACHE_TTL_SECONDS", intFrom(10, 0, 31_536_000)),
  batchWindowMs: fromEnv("BATCH_WINDOW_MS", intFrom(1, 0, 1000)),
  rpcMaxInFlight: fromEnv("RPC_MAX_IN_FLIGHT", intFrom(4, 1, 1024)),
  /** Node: after a reply, its clients' next reads are held while each poll phase brings more, at most this long; 0: off. */
  batchGatherMs: fromEnv("BATCH_GATHER_MS", intFrom(2, 0, 1000)),
  /** Account reads of one batch reply settled per event-loop turn while the loop has idle time (Node); 0: all at once. */
  rpcSettleSlice: fromEnv("RPC_SETTLE_SLICE", intFrom(32, 0, 100_000)),
  shutdownGraceMs: fromEnv("SHUTDOWN_GRACE_MS", intFrom(10_000, 0, 600_000)),
  rpcOverride: fromEnv("RPC_OVERRIDE", onOff("on")),
  /** `/domains` on RPC_URL reads tokenized domains from an in-memory index of the tokenizer. */
  tokenizedIndex: fromEnv("TOKENIZED_INDEX", onOff("on")),
  /** Memory the tokenized index may take, in MiB (64 bytes per record); past it, `/domains` scans. */
  tokenizedIndexMaxMb: fromEnv("TOKENIZED_INDEX_MAX_MB", intFrom(32, 1, 4096)),
  /** How long every endpoint may refuse the index's floor (-32016) before it is dropped to what they serve. */
  tokenizedIndexFloorGiveUpMs: fromEnv("TOKENIZED_INDEX_FLOOR_GIVE_UP_MS", intFrom(10_000, 100, 600_000)),
  /** Slots the tokenized index may be behind the tip before `/ready` answers 503. */
  readyMaxIndexLagSlots: fromEnv("READY_MAX_INDEX_LAG_SLOTS", intFrom(150, 0, 1_000_000)),
  /** Host names an `rpc` override may name; undefined: any public host. */
  rpcOverrideHosts: fromEnv("RPC_OVERRIDE_HOSTS", hostList),
  /** JSON-RPC calls that requests with `rpc` may cause per minute per client IP; 0: unlimited. */
  rpcOverrideRateLimit: fromEnv("RPC_OVERRIDE_RATE_LIMIT", intFrom(1200, 0, 100_000_000)),
  /** JSON-RPC calls to `RPC_URL` one client's requests may cause per minute (RPC_RATE_LIMIT); 0: unlimited. */
  rpcRateLimit: fromEnv("RPC_RATE_LIMIT", intFrom(RPC_RATE_LIMIT_DEFAULT, 0, 100_000_000)),
  /** What one request on `RPC_URL` may cause (RPC_BUDGET_*). */
  rpcBudget: {
    deadlineMs: fromEnv("RPC_BUDGET_MS", intFrom(30_000, 100, 600_000)),
    maxCalls: fromEnv("RPC_BUDGET_CALLS", intFrom(5000, 1, 10_000_000)),
    maxBytes: fromEnv("RPC_BUDGET_BYTES", intFrom(256 * 1024 * 1024, 1024, 2 ** 40)),
    maxItems: fromEnv("RPC_BUDGET_ITEMS", intFrom(200_000, 1, 100_000_000)),
  },
  /** Work under way at once on the heavy routes (BULKHEAD_*): records, wallets, override list requests. */
  bulkheads: {
    records: fromEnv("BULKHEAD_RECORDS", intFrom(600, 1, 1_000_000)),
    wallets: fromEnv("BULKHEAD_WALLETS", intFrom(1000, 1, 1_000_000)),
    overrideLists: fromEnv("BULKHEAD_OVERRIDE_LISTS", intFrom(32, 1, 100_000)),
  },
  /** What one request naming an `rpc` override may cause (RPC_OVERRIDE_BUDGET_*). */
  rpcOverrideBudget: {
    deadlineMs: fromEnv("RPC_OVERRIDE_BUDGET_MS", intFrom(10_000, 100, 600_000)),
    maxCalls: fromEnv("RPC_OVERRIDE_BUDGET_CALLS", intFrom(200, 1, 10_000_000)),
    maxBytes: fromEnv("RPC_OVERRIDE_BUDGET_BYTES", intFrom(16 * 1024 * 1024, 1024, 2 ** 40)),
    maxItems: fromEnv("RPC_OVERRIDE_BUDGET_ITEMS", intFrom(20_000, 1, 100_000_000)),
  },
  /** Header carrying the client IP (set by a trusted proxy); undefined: the socket's address. */
  clientIpHeader: fromEnv("CLIENT_IP_HEADER", headerName),
  /** Time a client has to send a request's headers (and twice that for the whole request). */
  headersTimeoutMs: fromEnv("HEADERS_TIMEOUT_MS", intFrom(10_000, 1000, 120_000)),
  /** How long a tokenized domain's NFT holder may be reused by /resolve; 0: looked up every time. */
  nftHolderTtlMs: fromEnv("NFT_HOLDER_TTL_MS", intFrom(0, 0, 60_000)),
  /** Prometheus metrics kept and served at `GET /metrics`. */
  metrics: fromEnv("METRICS", onOff("on")),
  /** `.sol` names resolve through their SRS record; `/safe-resolve` cross-checks it with the name service. */
  solSrsResolution: fromEnv("SOL_SRS_RESOLUTION", onOff("off")),
  /** Hosts whose requests get the retired upstream hosts' API (docs/legacy.md); undefined: none. */
  legacyHosts: fromEnv("LEGACY_HOSTS", legacyHostList),
} satisfies SettingTable;

/** The configuration a table of settings reads into: each setting's value, groups as nested objects. */
type ConfigOf<T> = {
  readonly [K in keyof T]: T[K] extends Setting<infer S> ? z.output<S> : ConfigOf<T[K]>;
};

export type GatewayConfig = ConfigOf<typeof SETTINGS>;

/** Each setting's reader under its variable's name, so that a bad value is reported by the variable. */
const schemaShape = (table: SettingTable): Record<string, z.ZodType> =>
  Object.fromEntries(
    Object.values(table).flatMap((entry) =>
      isSetting(entry) ? [[entry.variable, entry.schema]] : Object.entries(schemaShape(entry)),
    ),
  );

const schema = z.object(schemaShape(SETTINGS));

/** The configuration of a table, from the values its variables were read into. */
const configOf = (table: SettingTable, read: Readonly<Record<string, unknown>>): unknown =>
  Object.fromEntries(
    Object.entries(table).map(([field, entry]) => [
      field,
      isSetting(entry) ? read[entry.variable] : configOf(entry, read),
    ]),
  );

export type Env = Record<string, string | undefined>;

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
  return configOf(SETTINGS, parsed.data) as GatewayConfig;
}

/** Every environment variable the gateway reads, as listed in docs/configuration.md's Variables table. */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(schema.shape);
