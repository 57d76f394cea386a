import type { IncomingMessage } from "node:http";
import type { Context } from "hono";

/** Leading or trailing whitespace that `Headers` strips from a value. */
const OUTER_WHITESPACE = /^[\t\n\r ]+|[\t\n\r ]+$/g;
const isWhitespace = (code: number) => code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;

/**
 * A request header read from the `IncomingMessage` Node has already parsed.
 * `c.req.header()` would make @hono/node-server build a `Headers` of every
 * header of the request first (validating each), to read one. The value is
 * the one `Headers.get` gives: every field of that name in order, joined
 * with ", ", outer whitespace stripped.
 */
export function nodeRequestHeader(c: Context, name: string): string | undefined {
  const incoming = incomingOf(c);
  return incoming ? incomingHeader(incoming, name) : c.req.header(name);
}

/** The request Node parsed, that @hono/node-server hands the app as `c.env.incoming`. */
export const incomingOf = (c: Context): IncomingMessage | undefined =>
  (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;

/** `nodeRequestHeader` of a request before it reaches the app. */
export function incomingHeader(incoming: IncomingMessage, name: string): string | undefined {
  const raw = incoming.rawHeaders;
  let value: string | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    const key = raw[i]!;
    if (key.length !== name.length || key.toLowerCase() !== name) continue;
    const field = normalized(raw[i + 1]!);
    value = value === undefined ? field : `${value}, ${field}`;
  }
  return value;
}

function normalized(value: string): string {
  if (value.length === 0) return value;
  return isWhitespace(value.charCodeAt(0)) || isWhitespace(value.charCodeAt(value.length - 1))
    ? value.replace(OUTER_WHITESPACE, "")
    : value;
}
