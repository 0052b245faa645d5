import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";

/**
 * Why scripts/build.js disposes the Remix compiler before it ends:
 * `remix build` leaves its esbuild contexts open and calls process.exit(0)
 * while the event loop was busy; esbuild's Go service then waits for the
 * answer to a ping that never comes and prints a goroutine dump. The same
 * esbuild as the Remix compiler's, a busy event loop, then exit: with a
 * dispose first it ends quietly, without one it crashes.
 */
const remixEsbuild = createRequire(import.meta.url).resolve("esbuild", {
  paths: [createRequire(import.meta.url).resolve("@remix-run/dev")],
});

function buildThenExit(dispose: boolean) {
  const source = `
    const esbuild = require(${JSON.stringify(remixEsbuild)});
    (async () => {
      const context = await esbuild.context({ stdin: { contents: "export const a = 1" }, write: false });
      await context.rebuild();
      const busyUntil = Date.now() + 1500;
      while (Date.now() < busyUntil) {}
      if (${dispose}) await context.dispose();
      process.exit(0);
    })();`;
  return spawnSync(process.execPath, ["-e", source], { encoding: "utf8", timeout: 30_000 });
}

describe("ending a build that used esbuild's service", () => {
  it("ends without a Go crash dump when the build context is disposed before exit", () => {
    const result = buildThenExit(true);
    expect(result.status).toBe(0);
    expect(result.stderr).not.toContain("all goroutines are asleep");
  });

  it("prints the crash dump `remix build` used to print when it exits with the context open", () => {
    expect(buildThenExit(false).stderr).toContain("fatal error: all goroutines are asleep - deadlock!");
  });
});
