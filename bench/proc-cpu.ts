import { existsSync, readdirSync, readFileSync } from "node:fs";

/**
 * CPU accounting from /proc (Linux): utime + stime of processes, in ms
 * (USER_HZ is 100 on Linux). A process tree's CPU is the sum over its root and
 * every descendant alive at both snapshots: the cluster's primary and workers.
 */
const TICK_MS = 10;

interface ProcessInfo {
  ppid: number;
  ticks: number;
  command: string;
}

function processTable(): Map<number, ProcessInfo> {
  const table = new Map<number, ProcessInfo>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const close = stat.lastIndexOf(")");
      const fields = stat.slice(close + 2).split(" ");
      table.set(Number(entry), {
        command: stat.slice(stat.indexOf("(") + 1, close),
        ppid: Number(fields[1]),
        ticks: Number(fields[11]) + Number(fields[12]),
      });
    } catch {
      // The process ended while we looked.
    }
  }
  return table;
}

function descendants(table: Map<number, ProcessInfo>, root: number): number[] {
  const found = [root];
  for (let index = 0; index < found.length; index++) {
    for (const [pid, info] of table) if (info.ppid === found[index]) found.push(pid);
  }
  return found;
}

export type CpuSnapshot = Map<number, number>;

/** CPU ms so far of `root` and its descendants except PostgreSQL's (null without /proc). */
export function cpuOfTree(root: number): CpuSnapshot | null {
  if (!existsSync("/proc/self/stat")) return null;
  const table = processTable();
  const snapshot: CpuSnapshot = new Map();
  for (const pid of descendants(table, root)) {
    const info = table.get(pid);
    if (info && !info.command.startsWith("postgres")) snapshot.set(pid, info.ticks * TICK_MS);
  }
  return snapshot;
}

/** CPU ms spent between two snapshots (a process that appeared in between counts from zero). */
export function cpuBetween(before: CpuSnapshot | null, after: CpuSnapshot | null): number | null {
  if (!before || !after) return null;
  let total = 0;
  for (const [pid, ms] of after) total += ms - (before.get(pid) ?? 0);
  return total;
}
