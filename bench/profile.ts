import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

// Self-time summary of a V8 .cpuprofile (from `node --cpu-prof`).
// Usage: tsx bench/profile.ts <file.cpuprofile> [top=25]

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly children?: readonly number[];
}

interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
  readonly startTime: number;
  readonly endTime: number;
}

function shortUrl(url: string): string {
  const cut = url.replace(/^file:\/\//, "");
  const marker = [/\/node_modules\/\.cache\/sns-gateway-bench-[0-9a-f]+\//.exec(cut)?.[0], "/node_modules/"].find(
    (m) => m !== undefined && cut.includes(m),
  );
  return marker ? cut.slice(cut.lastIndexOf(marker) + marker.length) : cut;
}

/** Where self time went, grouped by function and by package/area. */
export function summarizeProfile(path: string, top = 25): string {
  const profile = JSON.parse(readFileSync(path, "utf8")) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const total = [...selfUs.values()].reduce((a, b) => a + b, 0);

  const byFunction = new Map<string, number>();
  const byArea = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const frame = byId.get(id)!.callFrame;
    const url = shortUrl(frame.url);
    const key = `${frame.functionName || "(anonymous)"}  ${url ? `${url}:${frame.lineNumber + 1}` : ""}`.trim();
    byFunction.set(key, (byFunction.get(key) ?? 0) + us);
    const area = !url
      ? frame.functionName.startsWith("(")
        ? frame.functionName
        : "(native)"
      : url.startsWith("node:")
        ? "node core"
        : url.startsWith("src/") || url.startsWith("bench/")
          ? url.split("/").slice(0, 2).join("/")
          : url.startsWith("@")
            ? url.split("/").slice(0, 2).join("/")
            : url.split("/")[0]!;
    byArea.set(area, (byArea.get(area) ?? 0) + us);
  }
  // Inclusive time of the project's own functions: which of them the library time above belongs to.
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const inclusive = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) {
      const frame = byId.get(at)!.callFrame;
      const url = shortUrl(frame.url);
      if (!url.startsWith("src/")) continue;
      const key = `${frame.functionName || "(anonymous)"}  ${url}:${frame.lineNumber + 1}`;
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + us);
    }
  }
  const pct = (us: number) => `${((100 * us) / total).toFixed(1).padStart(5)}%`;
  const rows = (map: Map<string, number>, n: number) =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([key, us]) => `  ${pct(us)}  ${(us / 1000).toFixed(0).padStart(7)} ms  ${key}`);
  return [
    `sampled ${(total / 1e6).toFixed(2)} s of CPU`,
    "by area (self time):",
    ...rows(byArea, 15),
    `top ${top} functions (self time):`,
    ...rows(byFunction, top),
    "src/ functions (inclusive time):",
    ...rows(inclusive, 20),
  ].join("\n");
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const [file, top] = process.argv.slice(2);
  if (!file) {
    console.error("usage: tsx bench/profile.ts <file.cpuprofile> [top]");
    process.exit(2);
  }
  console.log(summarizeProfile(file, top ? Number(top) : 25));
}
