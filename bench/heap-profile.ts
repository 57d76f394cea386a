import { readFileSync } from "node:fs";

// Bytes by package and by allocating function, from a V8 sampling heap profile (`HeapProfiler.stopSampling`,
// written as a .heapprofile). `npm run bench -- alloc` and `BENCH_PROFILE=survivors` of the resolve section
// read theirs with it.

export interface HeapProfileNode {
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly selfSize: number;
  readonly children?: readonly HeapProfileNode[];
}

const AREAS = ["src/localnet", "src/sns", "src/rpc", "src/http", "src/platform", "src/service", "bench/"];

function areaOf(url: string): string {
  if (!url) return "(V8 and native)";
  const own = AREAS.find((area) => url.includes(area));
  if (own) return own;
  if (url.startsWith("node:")) return "node core";
  const inModules = url.split("/node_modules/").at(-1)!;
  return url.includes("/node_modules/")
    ? inModules
        .split("/")
        .slice(0, inModules.startsWith("@") ? 2 : 1)
        .join("/")
    : url;
}

/** Self bytes of every node under `node`, by area and by allocating function. */
export function tallyHeapProfile(
  node: HeapProfileNode,
  byArea = new Map<string, number>(),
  bySite = new Map<string, number>(),
): { byArea: Map<string, number>; bySite: Map<string, number> } {
  const { functionName, url, lineNumber } = node.callFrame;
  if (node.selfSize > 0) {
    const area = areaOf(url);
    byArea.set(area, (byArea.get(area) ?? 0) + node.selfSize);
    const site = `${functionName || "(anonymous)"} ${url.split("/").at(-1) ?? ""}:${lineNumber + 1} [${area}]`;
    bySite.set(site, (bySite.get(site) ?? 0) + node.selfSize);
  }
  for (const child of node.children ?? []) tallyHeapProfile(child, byArea, bySite);
  return { byArea, bySite };
}

/** The tally as KB per answer: the `areas` largest packages, then the `sites` largest functions. */
export function formatHeapTally(
  { byArea, bySite }: ReturnType<typeof tallyHeapProfile>,
  answers: number,
  areas = 15,
  sites = 25,
): string {
  const perAnswer = (bytes: number) => (bytes / Math.max(1, answers) / 1024).toFixed(2).padStart(7);
  return [
    "KB per answer, by package or folder:",
    ...[...byArea]
      .sort((a, b) => b[1] - a[1])
      .slice(0, areas)
      .map(([area, bytes]) => `${perAnswer(bytes)}  ${area}`),
    "",
    "KB per answer, by allocating function:",
    ...[...bySite]
      .sort((a, b) => b[1] - a[1])
      .slice(0, sites)
      .map(([site, bytes]) => `${perAnswer(bytes)}  ${site}`),
  ].join("\n");
}

/** A .heapprofile file's tally, per answer. */
export function summarizeHeapProfile(path: string, answers: number): string {
  const profile = JSON.parse(readFileSync(path, "utf8")) as { head: HeapProfileNode };
  const tally = tallyHeapProfile(profile.head);
  const total = [...tally.byArea.values()].reduce((a, b) => a + b, 0);
  return `${(total / Math.max(1, answers) / 1024).toFixed(2)} KB per answer in all\n${formatHeapTally(tally, answers)}`;
}
