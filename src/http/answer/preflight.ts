import { answerHeaders } from "./headers.js";

/**
 * A CORS preflight (any `OPTIONS`), answered by the frame before any route:
 * `requested` is its `Access-Control-Request-Headers`, `methods` what the
 * path takes (allowed-methods.ts), so a browser does not send a request the
 * route would refuse with 405. A path no route serves lists no methods: the
 * browser then sends only a simple request, whose 404 it may read. CORS for
 * any origin and the request id come with the common set (headers.ts); no
 * `Cache-Control` (none is decided before a preflight).
 */
export function preflightAnswer(
  requestId: string,
  requested: string | undefined,
  methods: readonly string[],
): Response {
  const own: Record<string, string> = {};
  if (methods.length > 0) own["access-control-allow-methods"] = methods.join(",");
  if (requested) {
    own["access-control-allow-headers"] = requested
      .split(",")
      .map((name) => name.trim())
      .join(",");
    own.vary = "Access-Control-Request-Headers";
  }
  return new Response(null, {
    status: 204,
    statusText: "No Content",
    headers: answerHeaders(undefined, requestId, undefined, own),
  });
}
