import { type IncomingMessage, type Server, createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** One span as OTLP/HTTP JSON carries it, its attributes flattened to plain values. */
export interface ReceivedSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string;
  readonly name: string;
  readonly kind: number;
  readonly attributes: Readonly<Record<string, string | number | boolean>>;
  /** The resource's attributes (service.name …). */
  readonly resource: Readonly<Record<string, string | number | boolean>>;
}

/** A posted export as received: its path, content type and raw text. */
export interface ReceivedExport {
  readonly path: string;
  readonly contentType: string;
  readonly text: string;
}

export interface OtlpReceiver {
  readonly url: string;
  readonly exports: readonly ReceivedExport[];
  /** Every span of every export received so far. */
  spans(): ReceivedSpan[];
  close(): Promise<void>;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
}

interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}

const plain = (value: OtlpValue): string | number | boolean =>
  value.stringValue ??
  (value.intValue !== undefined ? Number(value.intValue) : (value.boolValue ?? value.doubleValue!));

const attributesOf = (list: readonly OtlpAttribute[] | undefined): Record<string, string | number | boolean> =>
  Object.fromEntries((list ?? []).map(({ key, value }) => [key, plain(value)]));

/**
 * Decodes an OTLP/HTTP JSON trace export (ExportTraceServiceRequest in the
 * protobuf JSON mapping, ids as hex strings, as the exporter of
 * @opentelemetry/exporter-trace-otlp-http posts them).
 */
export function decodeTraceExport(text: string): ReceivedSpan[] {
  const body = JSON.parse(text) as {
    resourceSpans?: {
      resource?: { attributes?: OtlpAttribute[] };
      scopeSpans?: {
        spans?: {
          traceId: string;
          spanId: string;
          parentSpanId?: string;
          name: string;
          kind: number;
          attributes?: OtlpAttribute[];
        }[];
      }[];
    }[];
  };
  return (body.resourceSpans ?? []).flatMap((resourceSpans) => {
    const resource = attributesOf(resourceSpans.resource?.attributes);
    return (resourceSpans.scopeSpans ?? []).flatMap((scope) =>
      (scope.spans ?? []).map((span) => ({
        traceId: span.traceId,
        spanId: span.spanId,
        parentSpanId: span.parentSpanId ?? "",
        name: span.name,
        kind: span.kind,
        attributes: attributesOf(span.attributes),
        resource,
      })),
    );
  });
}

const bodyOf = (request: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });

/** An OTLP/HTTP receiver on a loopback port: keeps every post and answers each with an empty success. */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const exports: ReceivedExport[] = [];
  const server: Server = createServer((request, response) => {
    void bodyOf(request).then((text) => {
      exports.push({ path: request.url ?? "", contentType: request.headers["content-type"] ?? "", text });
      response.writeHead(200, { "content-type": "application/json" });
      response.end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    exports,
    spans: () => exports.flatMap((posted) => decodeTraceExport(posted.text)),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
