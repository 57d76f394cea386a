import { Hono } from "hono";
import { deriveDomainKey } from "../../sns/derive.js";
import type { AppEnv } from "../deps.js";
import { ok } from "../envelope.js";
import { domainParam } from "../params.js";

/** Name account of `label` or `sub.label`; no RPC. */
export const domainKeyRoute = () =>
  new Hono<AppEnv>().get("/domain-key/:domain", (c) => ok(c, deriveDomainKey(domainParam(c))));
