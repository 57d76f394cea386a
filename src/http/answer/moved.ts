import type { Context } from "hono";
import type { AppEnv } from "../env.js";

/**
 * 301 to `location` (a path of this gateway), with no body. The frame adds
 * CORS, Cache-Control and the request id once the route has answered
 * (finish.ts), as for any answer outside the envelope.
 */
export const moved = (c: Context<AppEnv>, location: string): Response => c.body(null, 301, { Location: location });
