import type { Context } from "hono";
import type { AppEnv } from "../deps.js";
import { BodyTooLargeError, ClientClosedError, InvalidInputError } from "../answer/classify.js";

/**
 * Refuses at once, without reading a byte of it, a body whose declared
 * `Content-Length` is over `limit`: the client learns it before it sends
 * the body (with `Expect: 100-continue`, instead of `100 Continue`: the
 * Node listener sends that only once the body is read, see
 * src/platform/node/listener.ts). The 413 closes the connection
 * (classify.ts), the body unread.
 *
 * @throws BodyTooLargeError
 */
export function refuseDeclaredOverLimit(c: Context<AppEnv>, limit: number): void {
  const declared = c.req.header("content-length");
  if (declared !== undefined && Number(declared) > limit)
    throw new BodyTooLargeError(`body declares ${declared} bytes`);
}

/**
 * A request body as text, read from its stream and refused as soon as it
 * passes `limit` bytes (a declared length over it is refused before:
 * `refuseDeclaredOverLimit`), so no request holds more than `limit` plus
 * one chunk; an undeclared (chunked) body is refused at the chunk that
 * crosses it. The rest of such a body is read and dropped up to 1 MiB (see
 * `drain`), else left to the platform (@hono/node-server drops it after the
 * answer, closing the connection if it goes on too long). The same on Node
 * and Workers: both hand the app a standard `ReadableStream`. Bytes that
 * are not UTF-8 cannot be JSON. The 413 closes the connection (classify.ts):
 * a client must not send its next request on a connection the server may
 * drop while unread bytes drain.
 *
 * `refused` (optional) ends the reading with its rejection: the request's
 * place among bodies being received was taken (ReceivingBodies). A body
 * whose stream fails (its client closed the connection, or Node's request
 * timeout ended it) is a ClientClosedError, not a failure of the gateway.
 *
 * @throws BodyTooLargeError, InvalidInputError, ClientClosedError, or `refused`'s error
 */
export async function readBodyText(c: Context<AppEnv>, limit: number, refused?: Promise<never>): Promise<string> {
  refuseDeclaredOverLimit(c, limit);
  const stream = c.req.raw.body;
  if (!stream) return "";
  const reader = stream.getReader();
  const next = (): ReturnType<typeof reader.read> => {
    const read = reader.read().catch((error: unknown) => {
      throw new ClientClosedError("request body ended before it was complete", { cause: error });
    });
    return refused ? Promise.race([read, refused]) : read;
  };
  const chunks: Uint8Array[] = [];
  let length = 0;
  for (;;) {
    const { done, value } = await next();
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
 * all (`read` so far) and for at most DRAIN_MS: a client still sending it
 * then reads the answer instead of a reset connection (workerd resets a
 * connection answered with its body unread), while one that stops sending
 * mid-body is answered all the same. Beyond that the rest is left to the
 * platform. Not cancelled: that would reset a Node connection the client
 * may reuse.
 */
async function drain(reader: ReadableStreamDefaultReader<Uint8Array>, read: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stalled = new Promise<"stalled">((resolve) => (timer = setTimeout(() => resolve("stalled"), DRAIN_MS)));
  try {
    while (read <= DRAINED_BYTES) {
      const next = await Promise.race([reader.read(), stalled]);
      if (next === "stalled" || next.done) return;
      read += next.value.byteLength;
    }
    reader.releaseLock();
  } catch {
    // The client went away while its refused body drained: the 413 is still the answer.
  } finally {
    clearTimeout(timer);
  }
}

/** Bytes of a refused body read (and dropped) before answering; a larger one is answered at once. */
const DRAINED_BYTES = 1024 * 1024;
/** Longest a refused body is drained before answering. */
const DRAIN_MS = 1000;

const UTF8 = new TextDecoder("utf-8", { fatal: true });
