import type { Context } from "hono";
import type { AppEnv } from "../deps.js";
import { BodyTooLargeError, InvalidInputError } from "../answer/classify.js";

/**
 * A request body as text, read from its stream and refused as soon as it
 * passes `limit` bytes: a declared `Content-Length` over the limit is
 * refused before any byte is kept, and an undeclared (chunked) body at the
 * chunk that crosses it, so no request holds more than `limit` plus one
 * chunk. The rest of a refused body is read and dropped up to 1 MiB (see
 * `drain`), else left to the platform (@hono/node-server drops it after the
 * answer, closing the connection if it goes on too long). The same on Node
 * and Workers: both hand the app a standard `ReadableStream`. Bytes that
 * are not UTF-8 cannot be JSON. The 413 closes the connection (classify.ts):
 * a client must not send its next request on a connection the server may
 * drop while unread bytes drain.
 *
 * @throws BodyTooLargeError, InvalidInputError
 */
export async function readBodyText(c: Context<AppEnv>, limit: number): Promise<string> {
  const declared = c.req.header("content-length");
  const stream = c.req.raw.body;
  if (declared !== undefined && Number(declared) > limit) {
    if (stream && Number(declared) <= DRAINED_BYTES) await drain(stream.getReader(), 0);
    throw new BodyTooLargeError(`body declares ${declared} bytes`);
  }
  if (!stream) return "";
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    length += value.byteLength;
    if (length > limit) {
      await drain(reader, length);
      throw new BodyTooLargeError(`body over ${limit} bytes`);
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
 * Reads and drops what is left of a refused body, up to DRAINED_BYTES in
 * all (`read` so far): a client still sending it then reads the answer
 * instead of a reset connection (workerd resets a connection answered with
 * its body unread). Beyond that the rest is left to the platform. Not
 * cancelled: that would reset a Node connection the client may reuse.
 */
async function drain(reader: ReadableStreamDefaultReader<Uint8Array>, read: number): Promise<void> {
  while (read <= DRAINED_BYTES) {
    const { done, value } = await reader.read();
    if (done) return;
    read += value.byteLength;
  }
  reader.releaseLock();
}

/** Bytes of a refused body read (and dropped) before answering; a larger one is answered at once. */
const DRAINED_BYTES = 1024 * 1024;


const UTF8 = new TextDecoder("utf-8", { fatal: true });
