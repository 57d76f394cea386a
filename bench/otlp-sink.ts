import { type Server, createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** An OTLP/HTTP receiver for benchmarks: answers every export with success and only counts what it got. */
export interface OtlpSink {
  readonly url: string;
  /** Spans received so far (the `"spanId"` keys of the JSON exports). */
  readonly spans: number;
  close(): Promise<void>;
}

const SPAN_ID = /"spanId"/g;

export async function startOtlpSink(): Promise<OtlpSink> {
  let spans = 0;
  const server: Server = createServer((request, response) => {
    let text = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => (text += chunk));
    request.on("end", () => {
      spans += text.match(SPAN_ID)?.length ?? 0;
      response.writeHead(200, { "content-type": "application/json" });
      response.end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get spans() {
      return spans;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
