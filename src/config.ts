import { z } from "zod";
import type { PdaPolicy } from "./sns/resolve.js";
import { tryDecodePublicKey } from "./sns/bytes.js";

const flag = z
  .enum(["true", "false", "1", "0", ""])
  .optional()
  .transform((value) => value === "true" || value === "1");

const intFrom = (fallback: number, min: number, max: number) =>
  z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value.trim() === "") return fallback;
      const parsed = Number(value);
      if (!Number.isInteger(parsed) || parsed < min || parsed > max) {
        ctx.addIssue({ code: "custom", message: `must be an integer in [${min}, ${max}]` });
        return z.NEVER;
      }
      return parsed;
    });

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

const rpcUrl = z
  .string()
  .optional()
  .transform((value, ctx) => {
    const text = value?.trim();
    if (!text) return undefined;
    if (!URL.canParse(text) || !/^https?:$/.test(new URL(text).protocol)) {
      ctx.addIssue({ code: "custom", message: "must be an http(s) URL" });
      return z.NEVER;
    }
    return text;
  });

const schema = z.object({
  PORT: intFrom(3000, 0, 65535),
  HOST: z.string().optional().transform((v) => v?.trim() || "0.0.0.0"),
  RPC_URL: rpcUrl,
  RPC_TIMEOUT_MS: intFrom(5000, 1, 600_000),
  ALLOW_PRIVATE_RPC_OVERRIDE: flag,
  ALLOW_PDA_OWNERS: pdaPolicy,
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).optional().default("info"),
  RESOLVE_CACHE_TTL_MS: intFrom(0, 0, 3_600_000),
  CACHE_TTL_SECONDS: intFrom(10, 0, 31_536_000),
  BATCH_WINDOW_MS: intFrom(4, 0, 1000),
  RPC_MAX_IN_FLIGHT: intFrom(1, 1, 1024),
  SHUTDOWN_GRACE_MS: intFrom(10_000, 0, 600_000),
});

export type Env = Record<string, string | undefined>;

export interface GatewayConfig {
  readonly port: number;
  readonly host: string;
  readonly rpcUrl: string | undefined;
  readonly rpcTimeoutMs: number;
  readonly allowPrivateRpcOverride: boolean;
  readonly pdaPolicy: PdaPolicy;
  readonly logLevel: string;
  readonly resolveCacheTtlMs: number;
  readonly cacheTtlSeconds: number;
  readonly batchWindowMs: number;
  readonly rpcMaxInFlight: number;
  readonly shutdownGraceMs: number;
}

export class ConfigError extends Error {
  override readonly name = "ConfigError";
}

/** Reads configuration from environment variables; throws ConfigError listing every bad one. */
export function loadConfig(env: Env = process.env): GatewayConfig {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    throw new ConfigError(`invalid configuration: ${problems.join("; ")}`);
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    rpcUrl: e.RPC_URL,
    rpcTimeoutMs: e.RPC_TIMEOUT_MS,
    allowPrivateRpcOverride: e.ALLOW_PRIVATE_RPC_OVERRIDE,
    pdaPolicy: e.ALLOW_PDA_OWNERS,
    logLevel: e.LOG_LEVEL,
    resolveCacheTtlMs: e.RESOLVE_CACHE_TTL_MS,
    cacheTtlSeconds: e.CACHE_TTL_SECONDS,
    batchWindowMs: e.BATCH_WINDOW_MS,
    rpcMaxInFlight: e.RPC_MAX_IN_FLIGHT,
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
  };
}
