import type { Env } from "../../config.js";

/** Bindings: `[vars]`, secrets and Durable Object namespaces of wrangler.toml (settings share Node's names). */
export type Bindings = Record<string, unknown>;

/** wrangler `[vars]` may be numbers or booleans; the settings are read as the strings Node would see. */
export function settingsFrom(bindings: Bindings): Env {
  const env: Env = {};
  for (const [name, value] of Object.entries(bindings)) {
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") env[name] = String(value);
  }
  return env;
}

/** The binding of the tokenized index's Durable Object (wrangler.toml `[[durable_objects.bindings]]`). */
export const INDEX_OBJECT_BINDING = "TOKENIZED_INDEX_OBJECT";
