/**
 * CORS for any origin. Envelope answers carry `Access-Control-Allow-Origin`
 * from the start (answer/envelope.ts); any other answer gets it once the route has
 * answered (frame.ts). Hono rebuilds every response when a header is
 * put on `c.res` before the route (as its `cors()` does) and builds a
 * `Headers` per request when it is put on the context with `c.header`;
 * setting it on the finished answer does neither.
 *
 * A preflight (any `OPTIONS`) is answered here, before any route: `requested`
 * is its `Access-Control-Request-Headers`, `methods` what the path takes
 * (answer/allowed-methods.ts), so a browser does not send a request the
 * route would refuse with 405. A path no route serves lists no methods: the
 * browser then sends only a simple request, whose 404 it may read.
 */
export function preflightAnswer(requested: string | undefined, methods: readonly string[]): Response {
  const headers = new Headers({ "Access-Control-Allow-Origin": "*" });
  if (methods.length > 0) headers.set("Access-Control-Allow-Methods", methods.join(","));
  if (requested) {
    headers.set(
      "Access-Control-Allow-Headers",
      requested
        .split(",")
        .map((name) => name.trim())
        .join(","),
    );
    headers.append("Vary", "Access-Control-Request-Headers");
  }
  return new Response(null, { status: 204, statusText: "No Content", headers });
}
