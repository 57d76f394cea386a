import { Hono } from "hono";
import { lookupReverse } from "../../sns/queries/reverse-lookup.js";
import type { AppEnv } from "../deps.js";
import { ok } from "../envelope.js";
import { pubkeyParam } from "../params.js";

/** The name a name account stands for; a subdomain gives only its own label, as upstream. */
export const reverseLookupRoute = () =>
  new Hono<AppEnv>().get("/reverse-lookup/:pubkey", async (c) => {
    const key = pubkeyParam(c, "pubkey");
    return ok(c, await lookupReverse(c.var.rpc(), key));
  });
