/**
 * A CPU profile of only the measured seconds of a running server, for servers started by a bench or another
 * worktree, where `node --cpu-prof` cannot be passed (Node.js refuses it in NODE_OPTIONS). Start the server with
 * `NODE_OPTIONS="--import /absolute/path/to/bench/cpu-profile-preload.js" CPU_PROFILE_DIR=<dir>`; then
 * `kill -USR2 <pid>` starts the sampling profiler (1 ms) and a second `kill -USR2 <pid>` writes
 * <dir>/<pid>-<n>.cpuprofile, for bench/profile-summary.ts. The start, the seeding and the warm-up stay out.
 */
import fs from "node:fs";
import inspector from "node:inspector";
import path from "node:path";

const directory = process.env.CPU_PROFILE_DIR || ".";
const session = new inspector.Session();
session.connect();
session.post("Profiler.enable");
session.post("Profiler.setSamplingInterval", { interval: 1000 });

let profiling = false;
let written = 0;
process.on("SIGUSR2", () => {
  if (!profiling) {
    profiling = true;
    session.post("Profiler.start");
    return;
  }
  profiling = false;
  session.post("Profiler.stop", (error, result) => {
    if (error) return console.error(`cpu-profile-preload: ${error.message}`);
    fs.mkdirSync(directory, { recursive: true });
    written += 1;
    fs.writeFileSync(
      path.join(directory, `${process.pid}-${written}.cpuprofile`),
      JSON.stringify(result.profile),
    );
  });
});
