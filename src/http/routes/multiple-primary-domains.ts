import { Hono } from "hono";
import { findPrimaryDomains } from "../../sns/queries/primary-domains.js";
import type { AppEnv } from "../deps.js";
import { ok } from "../envelope.js";
import { pubkeysParam } from "../params.js";

/** One primary name (or null) per wallet of a 1–100 comma-separated list, in its order. */
export const multiplePrimaryDomainsRoute = () =>
  new Hono<AppEnv>().on("GET", ["/multiple-primary-domains/:owners", "/multiple-favorite-domains/:owners"], async (c) => {
    const owners = pubkeysParam(c, "owners");
    return ok(c, await findPrimaryDomains(c.var.rpc(), owners));
  });
