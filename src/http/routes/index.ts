import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppDeps } from "../deps.js";
import type { AppEnv } from "../env.js";
import { createSubdomainRoute } from "./create-subdomain.js";
import { deprecatedRoutes } from "./deprecated.js";
import { domainKeyRoute } from "./domain-key.js";
import { domainsRoute } from "./domains.js";
import { multiplePrimaryDomainsRoute } from "./multiple-primary-domains.js";
import { primaryDomainRoute } from "./primary-domain.js";
import { recordRoutes } from "./records.js";
import { registerRoute } from "./register.js";
import { resolveRoutes } from "./resolve.js";
import { resolveBulkRoutes } from "./resolve-bulk.js";
import { reverseKeyRoute } from "./reverse-key.js";
import { serviceRoutes } from "./service.js";
import { readyRoute } from "./ready.js";
import { reverseLookupRoute } from "./reverse-lookup.js";
import { subdomainsRoute } from "./subdomains.js";

/** Every application route; a new one is a file in this folder and a line here. */
export const ROUTES: readonly ((deps: AppDeps) => OpenAPIHono<AppEnv>)[] = [
  serviceRoutes,
  readyRoute,
  resolveRoutes,
  resolveBulkRoutes,
  deprecatedRoutes,
  recordRoutes,
  domainKeyRoute,
  reverseKeyRoute,
  reverseLookupRoute,
  domainsRoute,
  primaryDomainRoute,
  multiplePrimaryDomainsRoute,
  subdomainsRoute,
  registerRoute,
  createSubdomainRoute,
];
