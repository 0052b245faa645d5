import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { testDatabaseUrl } from "./worker-database";

const run = promisify(execFile);

/**
 * Runs one of scripts/ as an operator would (`tsx scripts/<name>.ts …`) against this worker's test database,
 * with only what the script needs in its environment: nothing of the test process leaks in, not even its
 * session secret (the two-factor reset must work without the key the secrets were encrypted with).
 */
export async function runScript(
  script: string,
  args: string[],
  { dataDir }: { dataDir: string },
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(
      path.resolve("node_modules/.bin/tsx"),
      [`scripts/${script}`, ...args],
      {
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          NODE_ENV: "development",
          DATABASE_URL: testDatabaseUrl(),
          SESSION_SECRET: "script-session-secret-0123456789",
          DATA_DIR: dataDir,
        },
        timeout: 30_000,
      },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? "", stderr: failed.stderr ?? "" };
  }
}
