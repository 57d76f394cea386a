import { SnsError } from "../errors.js";

/** Bytes a layout cannot be read from: the HTTP layer answers 422 `Record is malformed`. */
export function malformed(what: string, data: Uint8Array): never {
  throw new SnsError("MALFORMED_ACCOUNT", `${what} account has ${data.length} bytes`);
}
