/**
 * The logging the gateway needs: structured fields plus a message. pino's
 * Logger fits it on Node; Workers log JSON lines through `console`.
 */
export interface Logger {
  info(fields: object, message?: string): void;
  warn(fields: object, message?: string): void;
  error(fields: object, message?: string): void;
  debug(fields: object, message?: string): void;
  /**
   * Writes a request's line: exactly what `info(line, "request")` writes.
   * Optional: a logger that can write this one fixed shape cheaper than its
   * general path offers it (see src/platform/node/log.ts).
   */
  request?(line: RequestLine): void;
}

/** The fields of a request's log line (`msg: "request"`), in the order they are written. */
export interface RequestLine {
  reqId: string;
  method: string;
  route: string;
  status: number;
  ms: number;
  rpcCalls: number;
  rpcAccounts: number;
  rpcOverride: boolean;
  error?: string;
  /** Bulk routes: names asked for, names resolved (each once), and items by status. */
  names?: number;
  distinctNames?: number;
  items?: Readonly<Record<string, number>>;
  jsonRpcCalls?: number;
}
