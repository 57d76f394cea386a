import net from "node:net";

export interface RawAnswer {
  readonly status: number;
  /** Header names lowercased. */
  readonly headers: Record<string, string>;
  /** The header lines as written, in order. */
  readonly headerLines: readonly string[];
  readonly body: string;
}

/**
 * Sends `text` as-is over TCP and reads until the server closes, or until a
 * whole answer with Content-Length has arrived (servers may keep the
 * connection open), or `waitMs`.
 */
export function rawExchange(url: string, text: string, waitMs = 5000): Promise<RawAnswer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(text));
    let received = "";
    const timer = setTimeout(() => socket.destroy(new Error(`no close within ${waitMs} ms: ${received}`)), waitMs);
    socket.on("data", (chunk) => {
      received += chunk.toString("latin1");
      const end = received.indexOf("\r\n\r\n");
      const length = /\r\ncontent-length:\s*(\d+)/i.exec(received.slice(0, end));
      if (end >= 0 && length && received.length - end - 4 >= Number(length[1])) socket.destroy();
    });
    socket.on("error", reject);
    socket.on("close", () => {
      clearTimeout(timer);
      const [head = "", body = ""] = received.split("\r\n\r\n", 2);
      const [statusLine = "", ...lines] = head.split("\r\n");
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(":");
        headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({ status: Number(statusLine.split(" ")[1]), headers, headerLines: lines, body });
    });
  });
}
