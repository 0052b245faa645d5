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

type CpuSnapshot = Map<number, number>;

/** CPU ms so far of `root` and its descendants except PostgreSQL's (null without /proc). */
export function cpuOfTree(root: number): CpuSnapshot | null {
  return snapshotOf(root, (command) => !command.startsWith("postgres"));
}

/**
 * CPU ms so far of the PostgreSQL processes under `root` (the embedded server
 * a bench starts: its postmaster, background workers and every backend).
 */
export function cpuOfPostgres(root: number): CpuSnapshot | null {
  return snapshotOf(root, (command) => command.startsWith("postgres"));
}

function snapshotOf(root: number, counts: (command: string) => boolean): CpuSnapshot | null {
  if (!existsSync("/proc/self/stat")) return null;
  const table = processTable();
  const snapshot: CpuSnapshot = new Map();
  for (const pid of descendants(table, root)) {
    const info = table.get(pid);
    if (info && counts(info.command)) snapshot.set(pid, info.ticks * TICK_MS);
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

/** The machine's CPU counters so far (the `cpu` line of /proc/stat), or null without /proc. */
type MachineTicks = { steal: number; total: number } | null;

export function machineTicks(): MachineTicks {
  if (!existsSync("/proc/stat")) return null;
  const line = readFileSync("/proc/stat", "utf8").split("\n", 1)[0] ?? "";
  // cpu user nice system idle iowait irq softirq steal guest guest_nice (guest time is inside user)
  const fields = line.trim().split(/\s+/).slice(1, 9).map(Number);
  return { steal: fields[7] ?? 0, total: fields.reduce((sum, value) => sum + value, 0) };
}

/**
 * The share of the machine's time its hypervisor gave to other guests between
 * two readings ("steal"), in per cent, or null. A virtual machine whose host is
 * busy runs everything slower, and the CPU milliseconds per request measured
 * on it grow too: compare only figures measured at a similar steal, or side by
 * side in one run.
 */
export function stealPercent(before: MachineTicks, after: MachineTicks): number | null {
  if (!before || !after || after.total <= before.total) return null;
  return (100 * (after.steal - before.steal)) / (after.total - before.total);
}
