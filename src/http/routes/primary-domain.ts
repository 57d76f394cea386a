import { Hono } from "hono";
import { findPrimaryDomain } from "../../sns/queries/primary-domain.js";
import type { AppEnv } from "../deps.js";
import { ok } from "../envelope.js";
import { pubkeyParam } from "../params.js";

/** `{domain, reverse, stale}`, or null when the wallet never chose a primary domain. */
export const primaryDomainRoute = () =>
  new Hono<AppEnv>().on("GET", ["/primary-domain/:owner", "/favorite-domain/:owner"], async (c) => {
    const owner = pubkeyParam(c, "owner");
    return ok(c, await findPrimaryDomain(c.var.rpc(), owner));
  });
