import { readdirSync, readFileSync } from "node:fs";

/** Run time of every thread of `pid` so far, in nanoseconds (/proc/<pid>/task/<tid>/schedstat; 0 once it ended). */
export function cpuNsOf(pid: number): number {
  let total = 0;
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return 0;
  }
  for (const tid of tids) {
    try {
      total += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "latin1").split(" ")[0]);
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return total;
}

/** Processes below this one (children, grandchildren…) whose command name is `name`, e.g. Miniflare's `workerd`. */
export function descendantsNamed(name: string, root = process.pid): number[] {
  const parents = new Map<number, number>();
  const names = new Map<number, string>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "latin1");
      // pid (comm) state ppid …: comm may hold spaces and parentheses, so split after its last ")".
      const close = stat.lastIndexOf(")");
      names.set(Number(entry), stat.slice(stat.indexOf("(") + 1, close));
      parents.set(Number(entry), Number(stat.slice(close + 2).split(" ")[1]));
    } catch {
      // Gone meanwhile.
    }
  }
  const below = (pid: number): boolean => {
    for (let at = parents.get(pid); at !== undefined && at > 1; at = parents.get(at)) if (at === root) return true;
    return false;
  };
  return [...names].filter(([pid, comm]) => comm === name && below(pid)).map(([pid]) => pid);
}
