import type { Agent } from "node:http";
import * as untypedSdk from "@bonfida/spl-name-service";
import { Connection, type PublicKey, SolanaJSONRPCError } from "@solana/web3.js";
import { Hono } from "hono";
import { cors } from "hono/cors";
import type { ContentfulStatusCode } from "hono/utils/http-status";

/**
 * The comparison point: what the upstream proxy does for `/resolve`, on Node
 * instead of a Worker. Per request a fresh `Connection` (commitment
 * `processed`), a finalized-slot read for every `.sol` name, then the official
 * SDK's `resolve`. Envelope, statuses and messages are the upstream proxy's, so
 * answers can be compared byte for byte with the gateway's.
 */

// 3.0.26's declarations use extensionless re-exports NodeNext cannot follow; type just what is called.
const { resolve } = untypedSdk as unknown as {
  resolve(connection: Connection, domain: string): Promise<PublicKey>;
};

const SOL_CUTOFF_SLOT = 452_825_395;

class UnsupportedTld extends Error {
  readonly type = "UnsupportedTld";
}
class InvalidInput extends Error {
  readonly type = "InvalidInput";
}

export interface BaselineOptions {
  readonly rpcUrl: string;
  /**
   * Shares one keep-alive agent between the per-request Connections. Upstream
   * runs on Workers, whose fetch pools connections; web3.js on Node instead
   * opens a new agent (and TCP connection) per Connection. Off by default:
   * the per-request Connection is the upstream code as written.
   */
  readonly httpAgent?: Agent;
}

/** v4's `.sol` gate: endpoints seen past the cutoff are remembered for the process lifetime. */
const pastCutoff = new Set<string>();

async function resolveFull(connection: Connection, rpcUrl: string, full: string): Promise<string> {
  const tld = full.endsWith(".sns") ? ".sns" : full.endsWith(".sol") ? ".sol" : undefined;
  if (!tld) throw new UnsupportedTld("Domain has an unsupported TLD suffix");
  const name = full.slice(0, -tld.length);
  const labels = name.split(".");
  if (labels.length < 1 || labels.length > 2 || labels.some((label) => label === "")) throw new InvalidInput();
  if (tld === ".sol") {
    if (pastCutoff.has(rpcUrl)) throw new UnsupportedTld();
    if ((await connection.getSlot("finalized")) >= SOL_CUTOFF_SLOT) {
      pastCutoff.add(rpcUrl);
      throw new UnsupportedTld();
    }
  }
  // 3.0.26 strips exactly one trailing ".sol": appending it makes a name like "x.sol" (a subdomain) safe.
  const key = await resolve(connection, `${name}.sol`);
  return key.toBase58();
}

type Answer = readonly [ContentfulStatusCode, string];

const ERRORS: Record<string, Answer> = {
  InvalidDomain: [400, "Invalid input"],
  InvalidSubdomain: [400, "Invalid input"],
  InvalidParent: [400, "Invalid input"],
  InvalidInput: [400, "Invalid input"],
  PythFeedNotFound: [400, "Invalid input"],
  UnsupportedTld: [400, "Unsupported TLD"],
  DomainDoesNotExist: [404, "Domain not found"],
  AccountDoesNotExist: [404, "Resource not found"],
  NoAccountData: [404, "Resource not found"],
  NftRecordNotFound: [404, "Resource not found"],
  InvalidRecordData: [422, "Record is malformed"],
  RecordMalformed: [422, "Record is malformed"],
  WrongValidation: [422, "Record is malformed"],
  InvalidRoA: [422, "Record is malformed"],
};

function answerFor(error: unknown): Answer {
  const type = (error as { type?: unknown } | null)?.type;
  const mapped = typeof type === "string" ? ERRORS[type] : undefined;
  if (mapped) return mapped;
  if (error instanceof SolanaJSONRPCError) return [502, "RPC unavailable"];
  return [500, "Internal error"];
}

export function createBaselineApp(options: BaselineOptions): Hono {
  const app = new Hono();
  app.use(cors({ origin: "*" }));
  app.use(async (c, next) => {
    await next();
    if (c.req.method !== "OPTIONS") c.res.headers.set("Cache-Control", "no-store");
  });
  for (const path of ["/resolve/:domain", "/safe-resolve/:domain"]) {
    app.get(path, async (c) => {
      const full = (c.req.param("domain") ?? "").trim().toLowerCase();
      const connection = new Connection(options.rpcUrl, {
        commitment: "processed",
        ...(options.httpAgent ? { httpAgent: options.httpAgent } : {}),
      });
      return c.json({ s: "ok", result: await resolveFull(connection, options.rpcUrl, full) });
    });
  }
  app.onError((error, c) => {
    const [status, message] = answerFor(error);
    return c.json({ s: "error", result: message }, status);
  });
  return app;
}
