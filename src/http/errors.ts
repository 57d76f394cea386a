/**
 * Failures of the HTTP layer itself (of a request's input or its body),
 * thrown by the request schemas and body readers (openapi/) and the frame,
 * answered by answer/classify.ts.
 */

/** A parameter or body that fails its schema, or an `rpc` value too long to consider. */
export class InvalidInputError extends Error {
  override readonly name = "InvalidInputError";
}

/** A request body over the route's limit (413). */
export class BodyTooLargeError extends Error {
  override readonly name = "BodyTooLargeError";
}

/**
 * A request body that stopped arriving: its client closed the connection,
 * or the platform gave up waiting for it (Node's request timeout, answered
 * 408 by the listener). Not a failure of the gateway: answered (to nobody)
 * and counted as 499, nginx's "client closed request".
 */
export class ClientClosedError extends Error {
  override readonly name = "ClientClosedError";
}

/**
 * No room for a request whose body is not read (the bulk routes' line of
 * bodies being received is full, or a newer request took its place there):
 * 503 `Service overloaded`, and the connection is closed, the body left unread.
 */
export class UnreadBodyOverloadedError extends Error {
  override readonly name = "UnreadBodyOverloadedError";
}
