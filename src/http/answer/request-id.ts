/** An incoming id is kept when it is a plain token: printable ASCII, no spaces, bounded. */
const SANE_REQUEST_ID = /^[\x21-\x7e]{1,128}$/;

/** The id of a request (echoed in `X-Request-Id` and in its log lines): the one it carries when sane, else a new one. */
export function requestIdFor(given: string | undefined): string {
  return given !== undefined && SANE_REQUEST_ID.test(given) ? given : crypto.randomUUID();
}
