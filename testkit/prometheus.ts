/** One sample of a Prometheus text exposition: `name{labels}` with exactly these labels; 0 when absent. */
export function sampleValue(text: string, name: string, labels: Record<string, string> = {}): number {
  const wanted = Object.entries(labels)
    .map(([key, value]) => `${key}="${value}"`)
    .sort()
    .join(",");
  for (const line of text.split("\n")) {
    if (line.startsWith("#")) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = (match[2] ?? "")
      .split(/,(?=[a-zA-Z_]+=)/)
      .filter(Boolean)
      .sort()
      .join(",");
    if (found === wanted) return Number(match[3]);
  }
  return 0;
}
