import { type DocsAsset, type DocsAssetName, type DocsAssets, docsAsset } from "../../http/docs-assets.js";
import { OverloadedError } from "../../rpc/errors.js";

/**
 * First requests for one asset that may decompress it at once: each holds
 * its own output (the largest asset is ~1.7 MB of text, twice that as a
 * string of two-byte characters), and an isolate has 128 MB. Beyond it a
 * first request is answered 503 with `Retry-After`, by when the text is kept.
 */
export const MAX_DECOMPRESSING = 2;

/**
 * Workers: the `/docs` assets from the bundle, where they travel gzipped as
 * base64 (scripts/worker-bundle.mjs), so an isolate's start-up scans ~0.6 MB
 * of string literal instead of 1.9 MB of text. Each is decompressed on the
 * first request that asks for it and kept for the isolate's life: at most one
 * text per asset name, a fixed size.
 *
 * Two first requests at once each decompress (the loser's result is dropped):
 * a request must not wait on another's stream or promise (workerd ties both
 * to the request that made them); more than MAX_DECOMPRESSING are refused.
 */
export function bundledDocsAssets(gzippedBase64: Readonly<Record<DocsAssetName, string>>): DocsAssets {
  const served = new Map<DocsAssetName, DocsAsset>();
  const decompressing = new Map<DocsAssetName, number>();
  return async (name) => {
    const kept = served.get(name);
    if (kept) return kept;
    const running = decompressing.get(name) ?? 0;
    if (running >= MAX_DECOMPRESSING) throw new OverloadedError(`the /docs asset ${name} is being prepared`);
    decompressing.set(name, running + 1);
    let asset: DocsAsset;
    try {
      asset = docsAsset(name, await gunzipText(base64Bytes(gzippedBase64[name])));
    } finally {
      decompressing.set(name, decompressing.get(name)! - 1);
    }
    if (!served.has(name)) served.set(name, asset);
    return served.get(name);
  };
}

/** `Uint8Array.fromBase64` where the runtime has it (not yet in TypeScript's ES2023 library). */
const Bytes = Uint8Array as { fromBase64?: (base64: string) => Uint8Array<ArrayBuffer> };

/** The bytes of base64 text: natively where the runtime can (a third of the CPU of atob and a copy loop). */
function base64Bytes(base64: string): Uint8Array<ArrayBuffer> {
  if (Bytes.fromBase64) return Bytes.fromBase64(base64);
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/**
 * The gzipped UTF-8 text, decoded as Node's `readFile(path, "utf8")` decodes
 * the same file (src/platform/node/docs-assets.ts): a leading byte-order mark
 * is kept, not dropped.
 */
async function gunzipText(gzipped: Uint8Array<ArrayBuffer>): Promise<string> {
  const reader = new Blob([gzipped]).stream().pipeThrough(new DecompressionStream("gzip")).getReader();
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  const parts: string[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(decoder.decode(value, { stream: true }));
  }
  parts.push(decoder.decode());
  return parts.join("");
}
