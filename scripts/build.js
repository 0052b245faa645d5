// `npm run build`: the Remix build (browser assets and the server build in
// $BUILD_DIR, default build/), then the HTTP server and the run-time scripts
// compiled into $BUILD_DIR/server/, so that production runs plain `node`.
//
// Why not `remix build`: its CLI leaves the compiler's esbuild contexts open
// and ends with process.exit(0). esbuild's service pings its parent every
// second; a ping still unanswered when the parent exits leaves the Go
// service waiting for an answer that never comes, and it dies with "fatal
// error: all goroutines are asleep - deadlock!" and a goroutine dump on the
// terminal (evanw/esbuild#2485, #2727). Disposing the compiler first answers
// every ping (each dispose is a round trip), so the build ends quietly.
//
// `--if-stale`: build only when the build is missing or older than a source
// file (app/, server/, db/, scripts/, remix.config.js, package-lock.json), so
// that `npm test` builds once for the tests that start the server and for the
// end-to-end tests.
import { existsSync, readdirSync, rmSync, statSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { promisify } from "node:util";
import zlib from "node:zlib";
import * as esbuild from "esbuild";

const require = createRequire(import.meta.url);
process.env.NODE_ENV ||= "production";
const mode = process.env.NODE_ENV === "development" ? "development" : "production";

async function buildRemix() {
  const { readConfig } = require("@remix-run/dev/dist/config.js");
  const { create } = require("@remix-run/dev/dist/compiler/compiler.js");
  const { createFileWatchCache } = require("@remix-run/dev/dist/compiler/fileWatchCache.js");
  const { logger } = require("@remix-run/dev/dist/tux/logger.js");
  const started = Date.now();
  logger.info(`building... (NODE_ENV=${mode})`);
  const config = await readConfig(process.cwd());
  rmSync(config.assetsBuildDirectory, { recursive: true, force: true });
  const compiler = await create({
    config,
    options: { mode, sourcemap: false },
    fileWatchCache: createFileWatchCache(),
    logger,
  });
  try {
    await compiler.compile();
  } finally {
    await compiler.dispose();
  }
  await precompressAssets(config.assetsBuildDirectory);
  logger.info(`built (${((Date.now() - started) / 1000).toFixed(1)}s)`);
  return path.dirname(config.serverBuildPath);
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
async function buildServer(buildDir) {
  const outdir = path.join(buildDir, "server");
  rmSync(outdir, { recursive: true, force: true });
  await esbuild.build({
    entryPoints: {
      index: "server/index.ts",
      "db-migrate": "scripts/db-migrate.ts",
      "images-backfill": "scripts/images-backfill.ts",
      "db-seed": "scripts/db-seed.ts",
      "create-admin": "scripts/create-admin.ts",
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
  const buildDir = process.env.BUILD_DIR || "build";
  const outputs = [path.join(buildDir, "index.js"), path.join(buildDir, "server", "index.js")];
  if (!outputs.every((file) => existsSync(file))) return false;
  const built = Math.min(...outputs.map((file) => statSync(file).mtimeMs));
  const sources = ["app", "server", "db", "scripts", "remix.config.js", "package-lock.json"].filter((entry) =>
    existsSync(entry),
  );
  return sources.every((entry) => newestMtime(entry) <= built);
}

try {
  if (process.argv.includes("--if-stale") && buildIsFresh()) {
    console.log(`${process.env.BUILD_DIR || "build"}/ is newer than every source file: not rebuilt`);
  } else {
    await buildServer(await buildRemix());
  }
} catch (error) {
  if (error) console.error(error);
  process.exitCode = 1;
}
