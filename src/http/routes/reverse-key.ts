import { Hono } from "hono";
import { deriveReverseKeyOfName } from "../../sns/derive.js";
import type { AppEnv } from "../deps.js";
import { ok } from "../envelope.js";
import { domainParam } from "../params.js";

/** Reverse-lookup account of `label` or `sub.label` (a subdomain's is parented); no RPC. */
export const reverseKeyRoute = () =>
  new Hono<AppEnv>().get("/reverse-key/:domain", (c) => ok(c, deriveReverseKeyOfName(domainParam(c))));
