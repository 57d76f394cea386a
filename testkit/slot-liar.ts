import { type Server, createServer } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A JSON-RPC endpoint that lies about slots: every call is passed to an
 * honest `upstream` (a localnet), and while `lead` is above 0 every slot in
 * its answers (`context.slot`, `getSlot`, a signature's or a transaction's
 * slot, a -32016's `contextSlot`) is raised by `lead`, and every
 * `minContextSlot` asked is lowered by it before it is passed on. It
 * claims, consistently, a chain `lead` slots ahead of the one it serves: a
 * plausible but false high slot, as a misbehaving or hostile provider may.
 * The data it answers is the upstream's, so which chain a read came from
 * shows in what it answers.
 */
export interface SlotLiar {
  readonly url: string;
  /** Slots added to every slot it answers; 0: an honest proxy. */
  lead: number;
  /** Answers it still lies in (each call of a batch counts); Infinity unless set. */
  liesLeft: number;
  /** Answers (each call of a batch counts) sent with a raised slot. */
  readonly lies: number;
  /** JSON-RPC calls received (each call of a batch counts). */
  readonly calls: number;
  close(): Promise<void>;
}

interface Call {
  id?: unknown;
  method?: unknown;
  params?: unknown;
}

interface Reply {
  id?: unknown;
  result?: unknown;
  error?: { data?: unknown };
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null;

/** The call with its `minContextSlot` (in any config object of its params) lowered by `lead`. */
function lowered(call: Call, lead: number): Call {
  if (!Array.isArray(call.params)) return call;
  const params = call.params.map((param: unknown) =>
    isObject(param) && typeof param.minContextSlot === "number"
      ? { ...param, minContextSlot: Math.max(0, param.minContextSlot - lead) }
      : param,
  );
  return { ...call, params };
}

/** Raises every slot of `reply` (an answer to `method`) by `lead`; whether it raised any. */
function raise(reply: Reply, method: unknown, lead: number): boolean {
  const { result, error } = reply;
  if (isObject(error?.data) && typeof error.data.contextSlot === "number") {
    error.data.contextSlot += lead;
    return true;
  }
  if (method === "getSlot" && typeof result === "number") {
    reply.result = result + lead;
    return true;
  }
  if (method === "getSignaturesForAddress" && Array.isArray(result)) {
    for (const entry of result) if (isObject(entry) && typeof entry.slot === "number") entry.slot += lead;
    return true;
  }
  if (method === "getTransaction" && isObject(result) && typeof result.slot === "number") {
    result.slot += lead;
    return true;
  }
  if (isObject(result) && isObject(result.context) && typeof result.context.slot === "number") {
    result.context.slot += lead;
    return true;
  }
  return false;
}

export async function startSlotLiar(upstream: string, lead: number): Promise<SlotLiar> {
  let lies = 0;
  let calls = 0;
  const liar: SlotLiar & { url: string; close: () => Promise<void> } = {
    url: "",
    lead,
    liesLeft: Number.POSITIVE_INFINITY,
    get lies() {
      return lies;
    },
    get calls() {
      return calls;
    },
    close: () => Promise.resolve(),
  };
  const server: Server = createServer((request, response) => {
    const parts: Buffer[] = [];
    request.on("data", (chunk: Buffer) => parts.push(chunk));
    request.on("end", () => {
      void (async () => {
        let body: Call | Call[];
        try {
          body = JSON.parse(Buffer.concat(parts).toString()) as Call | Call[];
        } catch {
          response.writeHead(400).end();
          return;
        }
        const shift = liar.liesLeft > 0 ? liar.lead : 0;
        const asked = Array.isArray(body) ? body : [body];
        calls += asked.length;
        const methods = new Map(asked.map((call) => [JSON.stringify(call.id ?? null), call.method]));
        const sent = shift > 0 ? asked.map((call) => lowered(call, shift)) : asked;
        const answer = await fetch(upstream, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(Array.isArray(body) ? sent : sent[0]),
        }).catch(() => undefined);
        if (!answer) {
          response.destroy();
          return;
        }
        const text = await answer.text();
        let replies: unknown;
        try {
          replies = JSON.parse(text);
        } catch {
          response.writeHead(answer.status, { "content-type": "application/json" }).end(text);
          return;
        }
        if (shift > 0) {
          for (const reply of Array.isArray(replies) ? replies : [replies]) {
            if (liar.liesLeft <= 0) break;
            if (isObject(reply) && raise(reply as Reply, methods.get(JSON.stringify(reply.id ?? null)), shift)) {
              lies++;
              liar.liesLeft--;
            }
          }
        }
        response.writeHead(answer.status, { "content-type": "application/json" }).end(JSON.stringify(replies));
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  liar.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  liar.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return liar;
}
