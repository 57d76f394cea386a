import http from "node:http";
import type { Answer } from "./stack.js";

/**
 * GET `path` from `base` with the `Host` header `host` (fetch sends the URL's own host whatever it is given):
 * how a gateway behind a DNS name other than its listening address is asked.
 */
export function getAsHost(
  base: string,
  path: string,
  host: string,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers: { ...headers, host } }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("error", reject);
      response.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        const responseHeaders = new Headers();
        for (const [name, value] of Object.entries(response.headers)) {
          if (value !== undefined) responseHeaders.set(name, Array.isArray(value) ? value.join(", ") : value);
        }
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          body = undefined;
        }
        resolve({ status: response.statusCode ?? 0, headers: responseHeaders, body, text });
      });
    });
    request.on("error", reject);
  });
}
