import type { LoadResult } from "./load.js";

export type ServerName = "gateway" | "baseline" | "gateway-cache";

export interface ServerRun {
  readonly server: ServerName;
  readonly load: LoadResult;
  readonly rpc: {
    readonly httpRequests: number;
    readonly calls: number;
    readonly methods: Readonly<Record<string, number>>;
    /** RPC HTTP requests (a JSON-RPC batch counts once) per 1,000 answered requests. */
    readonly httpPer1k: number;
    readonly callsPer1k: number;
  };
  readonly cpu: {
    /** Server process CPU (user + system) per answered request. */
    readonly serverUsPerResolve: number;
    /** Server CPU seconds per wall-clock second (1.0 = one core saturated). */
    readonly serverCores: number;
    readonly localnetUsPerResolve: number;
    readonly localnetCores: number;
    readonly loadgenCores: number;
    /**
     * Busy cores of everything else on the machine (other bench children
     * idle aside, that is foreign work): a contended machine skews tails.
     */
    readonly otherCores: number | null;
    /** Server event-loop delay over the window: time ready work waited for the CPU. */
    readonly loopDelayMs: { readonly p50: number; readonly p99: number; readonly max: number };
    readonly localnetLoopDelayMs: { readonly p50: number; readonly p99: number; readonly max: number };
  };
  /**
   * Gateway only: mean time a request spent inside the app (the request
   * observer's span, from the gateway's own latency histogram) over the window.
   * What the client sees on top is the socket, Node's parser, the event-loop
   * queue and the load generator.
   */
  readonly inAppMeanMs?: number;
  /** The gateway's resolve cache during the window (cache settings only). */
  readonly cache?: { readonly hitPercent: number; readonly refreshPer1k: number } | undefined;
  readonly memory: {
    /** RSS once the setting's load has drained. */
    readonly rssAfterMB: number;
    /** Peak RSS of the process so far (it lives across settings). */
    readonly peakRssMB: number;
    /** V8 heap at the end of the measured window (before draining), MB. */
    readonly heapTotalMB: number;
    readonly heapUsedMB: number;
    readonly externalMB: number;
  };
}

export interface SettingResult {
  readonly id: string;
  readonly latencyMs: number;
  readonly connections: number;
  readonly cache: boolean;
  /** The gateway's and the baseline's median-req/s rounds. */
  readonly runs: readonly ServerRun[];
  readonly rounds?: { readonly gatewayRps: readonly number[]; readonly baselineRps: readonly number[] };
  /** c / RTT: what one RPC round trip per request allows at this concurrency. */
  readonly bound?: { readonly rttMs: number; readonly rps: number; readonly fraction: number };
  readonly ratio?: {
    /** Median over rounds of gateway req/s ÷ baseline req/s of the same round; min and max. */
    readonly rps: number;
    readonly rpsMin: number;
    readonly rpsMax: number;
    readonly p99: number;
    readonly rpcPer1k: number;
    readonly cpuPerResolve: number;
  };
}

export interface TargetCheck {
  readonly target: string;
  readonly value: string;
  readonly pass: boolean | null;
}

const fmt = (value: number, digits = 0): string =>
  Number.isFinite(value)
    ? value.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits })
    : "n/a";

function pad(cells: readonly string[], widths: readonly number[]): string {
  return cells.map((cell, i) => (i < 2 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join("  ");
}

export function formatTable(settings: readonly SettingResult[]): string {
  const header = [
    "setting",
    "server",
    "req/s",
    "p50 ms",
    "p99 ms",
    "RPC/1k",
    "calls/1k",
    "CPU µs/res",
    "cores",
    "RSS MB",
    "peak MB",
    "errors",
    "mismatch",
    "other",
  ];
  const rows: string[][] = [];
  for (const setting of settings) {
    for (const run of setting.runs) {
      const failed = Object.entries(run.load.statuses)
        .filter(([status]) => status === "502" || status === "503" || status === "504")
        .reduce((sum, [, count]) => sum + count, 0);
      rows.push([
        setting.id,
        run.server,
        fmt(run.load.rps),
        fmt(run.load.p50Ms, 1),
        fmt(run.load.p99Ms, 1),
        fmt(run.rpc.httpPer1k, 1),
        fmt(run.rpc.callsPer1k, 1),
        fmt(run.cpu.serverUsPerResolve),
        fmt(run.cpu.serverCores, 2),
        fmt(run.memory.rssAfterMB, 1),
        fmt(run.memory.peakRssMB, 1),
        String(run.load.errors + run.load.timeouts + failed),
        String(run.load.mismatches),
        run.cpu.otherCores === null ? "n/a" : fmt(run.cpu.otherCores, 2),
      ]);
    }
    if (setting.rounds) {
      const { gatewayRps, baselineRps } = setting.rounds;
      rows.push([
        "",
        "rounds",
        `${gatewayRps.join("/")} vs ${baselineRps.join("/")}`,
        "",
        "",
        "",
        "",
        "",
        "",
        "",
        "",
        "",
        "",
        "",
      ]);
    }
    if (setting.ratio) {
      const r = setting.ratio;
      const spread = r.rpsMin === r.rpsMax ? "" : ` (${fmt(r.rpsMin, 1)}–${fmt(r.rpsMax, 1)})`;
      rows.push([
        "",
        "gw/base",
        `×${fmt(r.rps, 2)}${spread}`,
        "",
        `×${fmt(r.p99, 2)}`,
        `×${fmt(r.rpcPer1k, 3)}`,
        "",
        `×${fmt(r.cpuPerResolve, 2)}`,
        "",
        "",
        "",
        "",
        "",
        "",
      ]);
    }
    if (setting.bound) {
      const b = setting.bound;
      // c / req/s is the whole cycle of a connection; the measured mean is request written to answer read.
      const cycle = (setting.connections * 1000) / (setting.runs[0]!.load.rps || 1);
      const measured = setting.runs[0]!.load.meanMs;
      const inApp = setting.runs[0]!.inAppMeanMs;
      const latency =
        `c/(req/s) ${fmt(cycle, 1)} ms, mean ${fmt(measured, 1)} ms` +
        (inApp ? `, in-app ${fmt(inApp, 1)} ms (RTT/in-app ${fmt(b.rttMs / inApp, 2)})` : "");
      rows.push([
        "",
        "c/RTT",
        `${fmt(b.rps)} (${fmt(b.fraction * 100, 0)}%)`,
        `RTT ${fmt(b.rttMs, 1)}`,
        latency,
        "",
        "",
        "",
        "",
        "",
        "",
        "",
        "",
        "",
      ]);
    }
  }
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const rule = widths.map((w) => "-".repeat(w)).join("  ");
  return [pad(header, widths), rule, ...rows.map((row) => pad(row, widths))].join("\n");
}

export function formatTargets(checks: readonly TargetCheck[]): string {
  return checks
    .map(
      (check) =>
        `${check.pass === null ? "  --  " : check.pass ? "  PASS" : "  FAIL"}  ${check.target}: ${check.value}`,
    )
    .join("\n");
}

/** Per-branch latency of one setting: which resolution paths set the tail. */
export function formatBranches(setting: SettingResult, top = 16): string {
  const all = Object.keys(setting.runs[0]?.load.byBranch ?? {});
  const branches = all.slice(0, top);
  const lines = [
    `latency by branch, ${setting.id}, the ${branches.length} most requested of ${all.length} (count  p50 ms  p99 ms):`,
  ];
  for (const branch of branches) {
    const cells = setting.runs.map((run) => {
      const b = run.load.byBranch[branch];
      return b
        ? `${run.server} ${String(b.count).padStart(6)} ${fmt(b.p50Ms, 1).padStart(7)} ${fmt(b.p99Ms, 1).padStart(7)}`
        : "";
    });
    lines.push(`  ${branch.padEnd(26)} ${cells.join("   |   ")}`);
  }
  return lines.join("\n");
}
