import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

/**
 * Where a `node --cpu-prof` profile spent its busy time: self time by package
 * (or file of ours), the functions with the most self time, and the functions
 * with the most total time (themselves plus what they called, each sample
 * counted once per function however deep the recursion).
 *
 * `npx tsx bench/profile-summary.ts <file.cpuprofile | folder> [rows] [skip ms]`
 */

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

const IDLE = new Set(["(idle)", "(program)"]);

/** node_modules/<package> (scoped too), node:internal, our own file relative to the worktree, or V8's label. */
function packageOf(frame: CallFrame): string {
  if (!frame.url) return frame.functionName || "(anonymous)";
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(frame.url);
  if (modules) return modules[1]!;
  if (frame.url.startsWith("node:")) return "node: (core)";
  const file = frame.url.replace(/^file:\/\//, "");
  return path.relative(process.cwd(), file) || file;
}

function functionOf(frame: CallFrame): string {
  return `${frame.functionName || "(anonymous)"} ${packageOf(frame)}:${frame.lineNumber + 1}`;
}

function table(title: string, totals: Map<string, number>, busy: number, rows: number): string {
  const lines = [...totals]
    .sort((a, b) => b[1] - a[1])
    .slice(0, rows)
    .map(([name, micros]) => `${((100 * micros) / busy).toFixed(1).padStart(6)} %  ${name}`);
  return [`${title}:`, ...lines].join("\n");
}

/** `skipMs`: leave out the first milliseconds of the profile (the server's start, migrations, warm-up). */
function summarizeProfile(profile: CpuProfile, rows = 25, skipMs = 0): string {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);

  const selfByPackage = new Map<string, number>();
  const selfByFunction = new Map<string, number>();
  const totalByFunction = new Map<string, number>();
  const add = (map: Map<string, number>, key: string, micros: number) =>
    map.set(key, (map.get(key) ?? 0) + micros);
  let busy = 0;
  let idle = 0;
  let elapsed = 0;
  profile.samples.forEach((id, index) => {
    const micros = profile.timeDeltas[index] ?? 0;
    elapsed += micros;
    if (elapsed < skipMs * 1000) return;
    const frame = byId.get(id)!.callFrame;
    if (IDLE.has(frame.functionName)) {
      idle += micros;
      return;
    }
    busy += micros;
    add(selfByPackage, packageOf(frame), micros);
    add(selfByFunction, functionOf(frame), micros);
    const seen = new Set<string>();
    for (let node: number | undefined = id; node !== undefined; node = parentOf.get(node)) {
      const key = functionOf(byId.get(node)!.callFrame);
      if (!seen.has(key)) add(totalByFunction, key, micros);
      seen.add(key);
    }
  });
  return [
    `Busy ${(busy / 1000).toFixed(0)} ms, idle ${(idle / 1000).toFixed(0)} ms; shares are of the busy time.`,
    table("Self time by package or file", selfByPackage, busy, rows),
    table("Self time by function", selfByFunction, busy, rows),
    table("Total time by function (self + callees)", totalByFunction, busy, rows),
  ].join("\n\n");
}

/** Every .cpuprofile in a folder (or one file), newest last. */
export function summarizeProfiles(target: string, rows?: number, skipMs?: number): string {
  const files = target.endsWith(".cpuprofile")
    ? [target]
    : readdirSync(target)
        .filter((name) => name.endsWith(".cpuprofile"))
        .sort()
        .map((name) => path.join(target, name));
  return files
    .map((file) => `== ${file}\n${summarizeProfile(JSON.parse(readFileSync(file, "utf8")), rows, skipMs)}`)
    .join("\n\n");
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const [target, rows, skipMs] = process.argv.slice(2);
  if (!target) {
    console.error("usage: npx tsx bench/profile-summary.ts <file.cpuprofile | folder> [rows] [skip ms]");
    process.exit(2);
  }
  console.log(summarizeProfiles(target, rows ? Number(rows) : undefined, Number(skipMs ?? 0)));
}
