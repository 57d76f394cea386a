import { type IncomingMessage, type RequestListener, type Server, ServerResponse, createServer } from "node:http";
import type { Socket } from "node:net";
import { type Http2Bindings, type HttpBindings, getRequestListener } from "@hono/node-server";
import type { Logger } from "../../logger.js";
import { RenewedSet } from "../../sns/renewed-map.js";
import { hostHeaderCount } from "./host-headers.js";
import { ADAPTER_REFUSAL, outsideAppAnswer, outsideAppBytes, parserFailure } from "../../http/answer/outside-app.js";

export interface ListenerOptions {
  /** The app: what @hono/node-server hands a request to (with the Node request and response as its bindings). */
  readonly fetch: (request: Request, env: HttpBindings | Http2Bindings) => Response | Promise<Response>;
  readonly logger: Logger;
  /** Time a client has to send a request's headers; the whole request gets twice that. */
  readonly headersTimeoutMs: number;
  /**
   * Answers a request before the app when it can, as the app would answer
   * it: true when it has answered, or has taken the request and will answer
   * it later (then every way out is its own); false, or a throw, leaves the
   * request to the app.
   */
  readonly answerBeforeApp?: (request: IncomingMessage, response: ServerResponse) => boolean;
  /** Wraps the handling of every request, once (telemetry/server-spans.ts: a span around it); absent: none. */
  readonly aroundRequest?: (listener: RequestListener) => RequestListener;
}

/** A Node HTTP server that can be drained: see `drain`. */
export interface DrainableServer {
  readonly server: Server;
  /**
   * Stops accepting, closes idle keep-alive sockets at once, answers the
   * requests in flight with `Connection: close`, and resolves when the last
   * one is answered, or after `graceMs` with the rest cut off.
   */
  drain(graceMs: number): Promise<void>;
}

/**
 * How long a connection the server closes after an answer written below the
 * app (408 for a request or body not sent in time, 400, 431) stays open for
 * the answer to reach a client that neither reads it nor closes: after it,
 * the socket is destroyed. Node's HTTP server lets half of a connection stay
 * open (`allowHalfOpen`): without this, a client that never closes would
 * keep its socket and its descriptor for as long as it likes.
 */
export const CLOSE_GRACE_MS = 2000;

/** Writes `bytes`, half-closes, and destroys the socket once the client closes its side too or after CLOSE_GRACE_MS. */
function closeAfterAnswer(socket: Socket, bytes: string): void {
  socket.end(bytes);
  const timer = setTimeout(() => socket.destroy(), CLOSE_GRACE_MS);
  timer.unref();
  socket.once("close", () => clearTimeout(timer));
}

/**
 * Every answer the process writes is in the envelope with CORS, including
 * the ones produced below the app: malformed requests rejected by Node's
 * parser, and requests the adapter cannot turn into a `Request` (missing or
 * malformed `Host`, a request target such as `*`).
 */
export function createDrainableServer(options: ListenerOptions): DrainableServer {
  const { logger } = options;
  const appListener = getRequestListener(options.fetch, {
    errorHandler: (error) => {
      logger.info(
        { status: ADAPTER_REFUSAL.status, error: (error as Error)?.message },
        "request refused by the HTTP adapter",
      );
      return outsideAppAnswer(ADAPTER_REFUSAL.status, ADAPTER_REFUSAL.message, true);
    },
  });
  const { answerBeforeApp } = options;
  const routed = answerBeforeApp
    ? (request: IncomingMessage, response: ServerResponse) => {
        let answered = false;
        try {
          answered = answerBeforeApp(request, response);
        } catch (error) {
          // Headers written by a failed answer cannot be taken back: the request is cut off.
          const cutOff = response.headersSent;
          logger.warn(
            { err: error },
            `answer before the app failed; ${cutOff ? "the request is cut off" : "the app answers"}`,
          );
          if (cutOff) {
            response.destroy();
            return;
          }
        }
        if (!answered) void appListener(request, response);
      }
    : appListener;
  // A request with more than one Host is refused before anything reads it (RFC 9112 section 3.2): the
  // first Host and the joined value the app would see name different hosts (host-headers.ts).
  const listener = (request: IncomingMessage, response: ServerResponse) => {
    if (hostHeaderCount(request) <= 1) return routed(request, response);
    logger.info({ status: 400, error: "more than one Host header" }, "request refused by the HTTP adapter");
    response.shouldKeepAlive = false;
    const refusal = outsideAppAnswer(ADAPTER_REFUSAL.status, ADAPTER_REFUSAL.message, true);
    void refusal.text().then((body) => {
      const headers = { ...Object.fromEntries(refusal.headers), "content-length": String(Buffer.byteLength(body)) };
      response.writeHead(refusal.status, headers);
      response.end(body);
    });
  };
  const server = createServer(
    {
      // A missing Host is answered by the adapter's error handler, in the envelope.
      requireHostHeader: false,
      headersTimeout: options.headersTimeoutMs,
      requestTimeout: options.headersTimeoutMs * 2,
      // Node enforces both timeouts only when it checks, every 30 s by default.
      connectionsCheckingInterval: Math.min(1000, options.headersTimeoutMs),
    },
    options.aroundRequest ? options.aroundRequest(listener) : listener,
  );

  // The last request's answer on each socket: while it is not ended, a request timeout cuts off that
  // request's body, which the app is waiting for.
  const answering = new WeakMap<Socket, ServerResponse>();

  server.on("clientError", (error: NodeJS.ErrnoException, socket: Socket) => {
    const last = answering.get(socket);
    const inFlight = last && !last.writableEnded ? last : undefined;
    // No second answer after one has begun on this socket.
    if (error.code === "ECONNRESET" || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const { status, message } = parserFailure(error.code);
    // A request the app is answering (its body timed out) is reported by its own request line, as 499.
    if (!inFlight) logger.info({ status, error: error.code ?? "client error" }, "request refused by the HTTP parser");
    closeAfterAnswer(socket, outsideAppBytes(status, message));
  });

  // `Expect: 100-continue`: the client waits for `100 Continue` before it sends the body. It is sent
  // when the app starts reading the body (the stream of the request is resumed), never for a body
  // refused unread (413 on its declared length, a 405): Node's default would send it before the app
  // has seen the request. Once an answer has begun, it is too late for one.
  server.on("checkContinue", (request: IncomingMessage, response: ServerResponse) => {
    request.once("resume", () => {
      if (!response.headersSent && !response.writableEnded) response.writeContinue();
    });
    server.emit("request", request, response);
  });

  // CONNECT: Node hands the raw socket to "connect" listeners (and, without one, closes it with no
  // answer). It is answered as any other request: through the app (405 on a route's path, 404
  // elsewhere, 400 for an authority-form target), on a response written to that socket, which is
  // closed once the answer is out.
  server.on("connect", (request: IncomingMessage, socket: Socket) => {
    const response = new ServerResponse(request);
    response.shouldKeepAlive = false;
    response.assignSocket(socket);
    response.once("finish", () => {
      response.detachSocket(socket);
      socket.end();
    });
    socket.once("error", () => socket.destroy());
    server.emit("request", request, response);
  });

  const inFlight = new RenewedSet<ServerResponse>();
  // One listener for every response ("close" is emitted once): no closure and no `once` wrapper per request.
  function answered(this: ServerResponse): void {
    inFlight.delete(this);
  }
  let draining = false;
  // Runs before the app's listener, so the header is in place before any answer is written.
  server.prependListener("request", (request: IncomingMessage, response: ServerResponse) => {
    if (draining) response.setHeader("Connection", "close");
    inFlight.add(response);
    answering.set(request.socket, response);
    response.on("close", answered);
  });

  let drained: Promise<void> | undefined;
  return {
    server,
    drain(graceMs) {
      drained ??= new Promise<void>((resolve) => {
        draining = true;
        for (const response of inFlight) if (!response.headersSent) response.setHeader("Connection", "close");
        const force = setTimeout(() => server.closeAllConnections(), graceMs);
        force.unref();
        server.close(() => {
          clearTimeout(force);
          resolve();
        });
        server.closeIdleConnections();
      });
      return drained;
    },
  };
}
