import { type PostRequest, type TransportFactory, createTransport } from "./contract.js";

const JSON_HEADERS = { "content-type": "application/json", accept: "application/json" };

/** Body chunks of a fetch Response, without relying on ReadableStream being async-iterable. */
async function* chunksOf(stream: ReadableStream<Uint8Array> | null): AsyncIterable<Uint8Array> {
  if (!stream) return;
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    // Stops the download when reading ends early (a limit was hit).
    reader.cancel().catch(() => undefined);
  }
}

/** POST over the standard `fetch`: what Workers (and any fetch-only runtime) use. */
export const fetchPost: PostRequest = async (url, body, signal) => {
  // Redirects are not followed: a public endpoint must not bounce the request to another address.
  const response = await fetch(url, { method: "POST", headers: JSON_HEADERS, body, signal, redirect: "manual" });
  const declared = Number(response.headers.get("content-length") ?? NaN);
  return {
    status: response.status,
    contentLength: Number.isSafeInteger(declared) ? declared : undefined,
    retryAfter: response.headers.get("retry-after"),
    body: chunksOf(response.body),
    discard: async () => void (await response.body?.cancel()),
  };
};

/** Transports over `fetch`; the `rpc` override gets the static URL rules only (see address-policy). */
export function createFetchTransports(): TransportFactory {
  return {
    trusted: (url, limits) => createTransport(url, limits, fetchPost),
    override: (url, limits) => createTransport(url, limits, fetchPost),
    close: async () => undefined,
  };
}
