import type { Context } from "hono";
import type { AppEnv } from "../deps.js";
import { setContextHeader } from "../answer/envelope.js";
import { BodyTooLargeError, InvalidInputError } from "../answer/classify.js";

/**
 * A request body as text, read from its stream and refused as soon as it
 * passes `limit` bytes: a declared `Content-Length` over the limit is
 * refused before any byte is read, and an undeclared (chunked) body is
 * refused at the chunk that crosses it, so no request buffers more than
 * `limit` plus one chunk (the rest is drained unread by the platform:
 * @hono/node-server reads and drops it after the answer, then closes the
 * connection if it goes on too long). The same on Node and Workers: both hand the app a
 * standard `ReadableStream`. Bytes that are not UTF-8 cannot be JSON.
 *
 * @throws BodyTooLargeError, InvalidInputError
 */
export async function readBodyText(c: Context<AppEnv>, limit: number): Promise<string> {
  const declared = c.req.header("content-length");
  if (declared !== undefined && Number(declared) > limit) throw tooLarge(c, `body declares ${declared} bytes`);
  const stream = c.req.raw.body;
  if (!stream) return "";
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    length += value.byteLength;
    if (length > limit) {
      // Not cancelled: that would reset a Node connection the client may reuse; the platform drains the rest.
      reader.releaseLock();
      throw tooLarge(c, `body over ${limit} bytes`);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  try {
    return UTF8.decode(bytes);
  } catch {
    throw new InvalidInputError("request body is not UTF-8");
  }
}

/**
 * The rest of the body is not read: the answer closes the connection
 * (`Connection: close`), so that a client does not send its next request on
 * a connection the server may drop while the unread bytes drain.
 */
function tooLarge(c: Context<AppEnv>, detail: string): BodyTooLargeError {
  setContextHeader(c, "Connection", "close");
  return new BodyTooLargeError(detail);
}

const UTF8 = new TextDecoder("utf-8", { fatal: true });
