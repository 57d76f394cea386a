import type { Context } from "hono";
import type { AppEnv } from "../env.js";
import { appAnswer } from "./headers.js";

/** 301 to `location` (a path of this gateway), with no body; the common headers as any answer (headers.ts). */
export const moved = (c: Context<AppEnv>, location: string): Response =>
  appAnswer(c, 301, null, undefined, { location });
