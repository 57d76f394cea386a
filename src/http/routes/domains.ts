import { Hono } from "hono";
import { listWalletDomains } from "../../sns/queries/wallet-domains.js";
import type { AppDeps, AppEnv } from "../deps.js";
import { ok } from "../envelope.js";
import { pubkeyParam } from "../params.js";

/** `[{domain, key}]`: registry-owned top-level domains, then tokenized domains the wallet holds. */
export const domainsRoute = (deps: AppDeps) =>
  new Hono<AppEnv>().get("/domains/:owner", async (c) => {
    const owner = pubkeyParam(c, "owner");
    const endpoint = c.var.rpc();
    return ok(c, await listWalletDomains(endpoint, owner, deps.tokenizedSource(endpoint)));
  });
