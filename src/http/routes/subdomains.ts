import { Hono } from "hono";
import { listSubdomains } from "../../sns/queries/subdomains.js";
import type { AppEnv } from "../deps.js";
import { ok } from "../envelope.js";
import { domainParam } from "../params.js";

/** Sub labels of a one-label parent that have a reverse record. */
export const subdomainsRoute = () =>
  new Hono<AppEnv>().get("/subdomains/:parent", async (c) => {
    const parent = domainParam(c, "parent", [1]);
    return ok(c, await listSubdomains(c.var.rpc(), parent));
  });
