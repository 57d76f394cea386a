import { NO_STORE } from "./cache-control.js";
import { errorText } from "./envelope.js";
import { answerHeaders } from "./headers.js";
import { utf8Length } from "./utf8-length.js";

/**
 * Failures answered below the app, where no request frame exists: Node's
 * HTTP parser and adapter refusing a request, a Worker whose settings do not
 * load. They are envelope errors like every other answer, never kept, with
 * CORS (answer/headers.ts); no request id (there is no request to give one to).
 */
const OUTSIDE_APP_HEADERS = answerHeaders(NO_STORE, undefined, "application/json");
const OUTSIDE_APP_CLOSING_HEADERS = answerHeaders(NO_STORE, undefined, "application/json", { connection: "close" });

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
  return new Response(errorText(message), {
    status,
    headers: { ...(close ? OUTSIDE_APP_CLOSING_HEADERS : OUTSIDE_APP_HEADERS) },
  });
}

const REASONS: Readonly<Record<number, string>> = {
  400: "Bad Request",
  408: "Request Timeout",
  431: "Request Header Fields Too Large",
};

/** The same answer as raw HTTP/1.1 bytes, for a socket the parser gave up on; the connection is closed after it. */
export function outsideAppBytes(status: number, message: string): string {
  const body = errorText(message);
  const headers = { ...OUTSIDE_APP_CLOSING_HEADERS, "content-length": String(utf8Length(body)) };
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
  return `HTTP/1.1 ${status} ${REASONS[status] ?? ""}\r\n${lines.join("\r\n")}\r\n\r\n${body}`;
}
