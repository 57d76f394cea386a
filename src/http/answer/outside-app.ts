import { NO_STORE } from "./cache-control.js";
import { errorText } from "./envelope.js";

/**
 * Failures answered below the app, where no request frame exists: Node's
 * HTTP parser and adapter refusing a request, a Worker whose settings do not
 * load. They are envelope errors like every other answer, never kept, with
 * CORS; no request id (there is no request to give one to).
 */
export const OUTSIDE_APP_HEADERS = {
  "Content-Type": "application/json",
  "Access-Control-Allow-Origin": "*",
  "Cache-Control": NO_STORE,
} as const;

/** What Node's HTTP parser reports before any request exists, as the status and message it is answered with. */
export function parserFailure(code: string | undefined): {
  readonly status: 400 | 408 | 431;
  readonly message: string;
} {
  if (code === "HPE_HEADER_OVERFLOW") return { status: 431, message: "Request headers too large" };
  if (code === "ERR_HTTP_REQUEST_TIMEOUT") return { status: 408, message: "Request timeout" };
  return { status: 400, message: "Bad request" };
}

/** A request the adapter cannot turn into a `Request` (missing or malformed `Host`, a target such as `*`). */
export const ADAPTER_REFUSAL = { status: 400, message: "Bad request" } as const;

/** The answer to a failure outside the app, as a `Response`; `close` asks the client to close the connection. */
export function outsideAppAnswer(status: number, message: string, close = false): Response {
  const headers: Record<string, string> = { ...OUTSIDE_APP_HEADERS };
  if (close) headers.Connection = "close";
  return new Response(errorText(message), { status, headers });
}

const REASONS: Readonly<Record<number, string>> = {
  400: "Bad Request",
  408: "Request Timeout",
  431: "Request Header Fields Too Large",
};
const UTF8 = new TextEncoder();

/** The same answer as raw HTTP/1.1 bytes, for a socket the parser gave up on; the connection is closed after it. */
export function outsideAppBytes(status: number, message: string): string {
  const body = errorText(message);
  const headers: Record<string, string> = {
    ...OUTSIDE_APP_HEADERS,
    "Content-Length": String(UTF8.encode(body).length),
    Connection: "close",
  };
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
  return `HTTP/1.1 ${status} ${REASONS[status] ?? ""}\r\n${lines.join("\r\n")}\r\n\r\n${body}`;
}
