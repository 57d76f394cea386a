/**
 * The logging the gateway needs: structured fields plus a message. pino's
 * Logger fits it on Node; Workers log JSON lines through `console`.
 */
export interface Logger {
  info(fields: object, message?: string): void;
  warn(fields: object, message?: string): void;
  error(fields: object, message?: string): void;
  debug(fields: object, message?: string): void;
}
