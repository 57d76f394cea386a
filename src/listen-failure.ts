/** Where a server was asked to listen, and the names of the settings that chose it. */
export interface ListenTarget {
  readonly port: number;
  readonly host: string;
  /** The environment variable that sets `port`, e.g. `PORT`. */
  readonly portSetting: string;
  /** The environment variable that sets `host`, e.g. `HOST`. */
  readonly hostSetting: string;
}

/**
 * The one line a person starting a server needs when it cannot listen where
 * it was told to: what is wrong, and the setting to change. Undefined for
 * any other failure, which is thrown on as it is. Read from the error's
 * code only (Node's `listen` errors), so it holds no runtime import.
 */
export function listenFailure(error: unknown, target: ListenTarget): string | undefined {
  const code = typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
  switch (code) {
    case "EADDRINUSE":
      return `port ${target.port} is already in use: set ${target.portSetting} to a free port`;
    case "EACCES":
      return `port ${target.port} needs privileges this process does not have: set ${target.portSetting} to a port above 1023`;
    case "EADDRNOTAVAIL":
    case "ENOTFOUND":
      return `${target.host} is not an address of this machine: set ${target.hostSetting} to one of its addresses (0.0.0.0: all of them)`;
    default:
      return undefined;
  }
}
