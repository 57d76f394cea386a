import { readFileSync, readdirSync } from "node:fs";
import { getHeapSpaceStatistics, getHeapStatistics } from "node:v8";

/** Where a process's resident memory is, in bytes (Linux: /proc/self). */
export interface MemorySample {
  readonly rss: number;
  /** Peak RSS so far (VmHWM). */
  readonly peakRss: number;
  /** Anonymous resident pages: the V8 heap, malloc arenas, thread stacks. */
  readonly rssAnon: number;
  /** File-backed resident pages: mostly the node binary's code and data. */
  readonly rssFile: number;
  /** Memory V8 has committed for its heap, and how much of it is resident. */
  readonly v8Committed: number;
  readonly v8Resident: number;
  readonly v8Used: number;
  /** Per heap space (new_space, old_space, code_space, large_object_space, …): committed, resident and used. */
  readonly spaces: Readonly<
    Record<string, { readonly committed: number; readonly resident: number; readonly used: number }>
  >;
  /** Memory V8 itself allocated with malloc (not ArrayBuffers). */
  readonly v8Malloced: number;
  readonly external: number;
  readonly arrayBuffers: number;
  /** Resident pages of glibc's per-thread malloc arenas (their 64 MB mappings). */
  readonly threadArenas: number;
  /** Resident pages of the main malloc arena ([heap], grown with brk). */
  readonly brkHeap: number;
  readonly threads: number;
}

function statusField(status: string, field: string): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status);
  return match ? Number(match[1]) * 1024 : 0;
}

interface Mapping {
  readonly start: number;
  readonly end: number;
  readonly perms: string;
  readonly path: string;
  rss: number;
}

function mappings(): Mapping[] {
  const list: Mapping[] = [];
  for (const line of readFileSync("/proc/self/smaps", "utf8").split("\n")) {
    const header = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (header) {
      list.push({
        start: parseInt(header[1]!, 16),
        end: parseInt(header[2]!, 16),
        perms: header[3]!,
        path: header[4]!,
        rss: 0,
      });
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss && list.length) list[list.length - 1]!.rss = Number(rss[1]) * 1024;
  }
  return list;
}

/**
 * glibc gives each thread that mallocs its own arena: an anonymous mapping
 * reserved 64 MB long and 64 MB aligned, made accessible as it grows (the
 * rest stays `---p`). V8's pages are 256 KB chunks and never have that shape.
 */
function arenaBytes(list: readonly Mapping[]): number {
  const ARENA = 64 * 1024 * 1024;
  let total = 0;
  for (let i = 0; i < list.length; i++) {
    const m = list[i]!;
    if (m.path !== "" || m.start % ARENA !== 0) continue;
    let end = m.end;
    let rss = m.rss;
    let j = i + 1;
    while (j < list.length && list[j]!.path === "" && list[j]!.start === end && end - m.start < ARENA) {
      end = list[j]!.end;
      rss += list[j]!.rss;
      j++;
    }
    if (end - m.start === ARENA) total += rss;
  }
  return total;
}

export function sampleMemory(): MemorySample {
  const status = readFileSync("/proc/self/status", "utf8");
  const heap = getHeapStatistics();
  const spaces: Record<string, { committed: number; resident: number; used: number }> = {};
  for (const space of getHeapSpaceStatistics()) {
    spaces[space.space_name] = {
      committed: space.space_size,
      resident: space.physical_space_size,
      used: space.space_used_size,
    };
  }
  const usage = process.memoryUsage();
  const list = mappings();
  return {
    rss: statusField(status, "VmRSS"),
    peakRss: statusField(status, "VmHWM"),
    rssAnon: statusField(status, "RssAnon"),
    rssFile: statusField(status, "RssFile"),
    v8Committed: heap.total_heap_size,
    v8Resident: heap.total_physical_size,
    v8Used: heap.used_heap_size,
    spaces,
    v8Malloced: heap.malloced_memory,
    external: usage.external,
    arrayBuffers: usage.arrayBuffers,
    threadArenas: arenaBytes(list),
    brkHeap: list.filter((m) => m.path === "[heap]").reduce((sum, m) => sum + m.rss, 0),
    threads: readdirSync("/proc/self/task").length,
  };
}
