// `npm run build`: `react-router build` (the browser build in $BUILD_DIR/client, the server build in
// $BUILD_DIR/server/app.js), the browser build's scripts and stylesheets precompressed, then the HTTP
// server and the run-time scripts compiled into $BUILD_DIR/server/ beside it, so that production runs
// plain `node`.
//
// `--if-stale`: build only when the build is missing or older than a source file (app/, server/, db/,
// scripts/, the framework's and Vite's configuration, package-lock.json), so that `npm test` builds once for
// the tests that start the server and for the end-to-end tests.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import zlib from "node:zlib";
import * as esbuild from "esbuild";

process.env.NODE_ENV ||= "production";
const buildDir = process.env.BUILD_DIR || "build";

async function buildApp() {
  const started = Date.now();
  console.log(`building... (NODE_ENV=${process.env.NODE_ENV})`);
  execFileSync(path.join("node_modules", ".bin", "react-router"), ["build"], { stdio: "inherit" });
  await precompressAssets(path.join(buildDir, "client"));
  console.log(`built (${((Date.now() - started) / 1000).toFixed(1)}s)`);
}

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * Every script and stylesheet of the browser build, also as `.br` (brotli's best) and `.gz` (gzip -9), next
 * to it: the server sends these as they are (server/app.ts) instead of compressing each asset again for
 * every visitor without it in cache, and they are smaller than what on-the-fly compression can afford.
 */
async function precompressAssets(directory) {
  const files = readdirSync(directory, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(js|css)$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath ?? entry.path, entry.name));
  await Promise.all(
    files.map(async (file) => {
      const data = await readFile(file);
      const [br, gz] = await Promise.all([
        brotli(data, {
          params: {
            [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
          },
        }),
        gzip(data, { level: zlib.constants.Z_BEST_COMPRESSION }),
      ]);
      await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
    }),
  );
}

/** server/index.ts and the scripts an operator runs, as ES modules; packages stay in node_modules. */
async function buildServer() {
  // Beside the server build that `react-router build` has just written (its folder starts empty).
  const outdir = path.join(buildDir, "server");
  await esbuild.build({
    entryPoints: {
      index: "server/index.ts",
      "db-migrate": "scripts/db-migrate.ts",
      "images-backfill": "scripts/images-backfill.ts",
      "db-seed": "scripts/db-seed.ts",
      "create-admin": "scripts/create-admin.ts",
      "reset-two-factor": "scripts/reset-two-factor.ts",
    },
    outdir,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    packages: "external",
    logLevel: "warning",
  });
  // Killed rather than left to notice our exit: no unanswered ping, no crash dump.
  await esbuild.stop();
  console.log(`server compiled into ${path.relative(process.cwd(), outdir)}/`);
}

/** The newest modification time under `entry`; a folder's own counts too (a file deleted from it). */
function newestMtime(entry) {
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(entry).reduce(
    (newest, name) => Math.max(newest, newestMtime(path.join(entry, name))),
    stat.mtimeMs,
  );
}

/** Whether $BUILD_DIR holds a build newer than every source file. */
function buildIsFresh() {
  const outputs = [path.join(buildDir, "server", "app.js"), path.join(buildDir, "server", "index.js")];
  if (!outputs.every((file) => existsSync(file))) return false;
  const built = Math.min(...outputs.map((file) => statSync(file).mtimeMs));
  const sources = [
    "app",
    "server",
    "db",
    "scripts",
    "react-router.config.ts",
    "vite.config.ts",
    "package-lock.json",
  ].filter((entry) => existsSync(entry));
  return sources.every((entry) => newestMtime(entry) <= built);
}

try {
  if (process.argv.includes("--if-stale") && buildIsFresh()) {
    console.log(`${buildDir}/ is newer than every source file: not rebuilt`);
  } else {
    await buildApp();
    await buildServer();
  }
} catch (error) {
  if (error) console.error(error);
  process.exitCode = 1;
}
