import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppDeps } from "../../deps.js";
import type { AppEnv } from "../../env.js";
import { legacyCreateSubRoute } from "./create-sub.js";
import { legacyDomainsRoute } from "./domains.js";
import { legacyFavoriteRoutes } from "./favorites.js";
import { legacyKeyRoutes } from "./keys.js";
import { legacyRecordRoutes } from "./records.js";
import { legacyRegisterRoute } from "./register.js";
import { legacyResolveRoute } from "./resolve.js";
import { legacyServiceRoutes } from "./service.js";
import { legacyDomainDataRoute } from "./domain-data.js";
import { legacyReverseRoutes } from "./reverse.js";
import { legacyTwitterRoutes } from "./twitter.js";
import { legacyV1RecordRoutes } from "./v1-records.js";

/**
 * The routes of the legacy profile: the API of the retired upstream hosts, answered to requests whose Host
 * is listed in LEGACY_HOSTS (see docs/legacy.md); a new one is a file in this folder and a line here.
 */
export const LEGACY_ROUTES: readonly ((deps: AppDeps) => OpenAPIHono<AppEnv>)[] = [
  legacyServiceRoutes,
  legacyResolveRoute,
  legacyFavoriteRoutes,
  legacyDomainsRoute,
  legacyRecordRoutes,
  legacyKeyRoutes,
  legacyRegisterRoute,
  legacyCreateSubRoute,
  legacyV1RecordRoutes,
  legacyReverseRoutes,
  legacyTwitterRoutes,
  legacyDomainDataRoute,
];
