import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { request as httpRequest, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "../../app/lib/config.server";
import { createApp } from "../../server/app";
import { ensureFreshBuild, TEST_BUILD_DIR } from "../support/app-processes";
import { testBuild } from "../support/http-app";

/**
 * The browser build is sent precompressed: the build writes `.br` and `.gz`
 * beside every script and stylesheet (scripts/build.js), and the server sends
 * the one the client accepts (server/app.ts) instead of compressing again for
 * each visitor.
 */

const clientDir = path.join(TEST_BUILD_DIR, "client");
let server: Server;
let base: string;

function assets(): string[] {
  return readdirSync(clientDir, { recursive: true, encoding: "utf8" }).filter((name) => /\.(js|css)$/.test(name));
}

function get(pathname: string, headers: Record<string, string>, method = "GET") {
  return new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    const request = httpRequest(`${base}${pathname}`, { method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
      );
    });
    request.on("error", reject);
    request.end();
  });
}

beforeAll(async () => {
  ensureFreshBuild();
  const config = parseConfig({
    DATA_DIR: mkdtempSync(path.join(tmpdir(), "shop-assets-")),
    SESSION_SECRET: process.env.SESSION_SECRET,
    LOG_REQUESTS: "false",
    NODE_ENV: "production",
    BUILD_DIR: TEST_BUILD_DIR,
  });
  server = createApp({ build: testBuild(), config }).listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 300_000);

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("the browser build, precompressed", () => {
  it("has a brotli and a gzip copy of every script and stylesheet that decompress to the file itself", () => {
    const names = assets();
    expect(names.some((name) => name.endsWith(".js"))).toBe(true);
    expect(names.some((name) => name.endsWith(".css"))).toBe(true);
    for (const name of names) {
      const file = readFileSync(path.join(clientDir, name));
      const br = readFileSync(path.join(clientDir, `${name}.br`));
      const gz = readFileSync(path.join(clientDir, `${name}.gz`));
      expect(brotliDecompressSync(br).equals(file), `${name}.br`).toBe(true);
      expect(gunzipSync(gz).equals(file), `${name}.gz`).toBe(true);
    }
  });

  it("sends a script as brotli to a browser, with its type, Vary and a year's immutable cache", async () => {
    const name = assets().find((entry) => entry.endsWith(".js"))!;
    const response = await get(`/build/${name}`, { "Accept-Encoding": "gzip, deflate, br, zstd" });
    expect(response.status).toBe(200);
    expect(response.headers["content-encoding"]).toBe("br");
    expect(response.headers["content-type"]).toMatch(/^application\/javascript/);
    expect(response.headers["vary"]).toMatch(/Accept-Encoding/i);
    expect(response.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    // The build's own copy, not one compressed for this request (that would have no Content-Length).
    expect(response.body.equals(readFileSync(path.join(clientDir, `${name}.br`)))).toBe(true);
    expect(Number(response.headers["content-length"])).toBe(response.body.length);
    expect(brotliDecompressSync(response.body).equals(readFileSync(path.join(clientDir, name)))).toBe(true);
  });

  it("sends gzip to a client without brotli, or that refuses it with q=0", async () => {
    const name = assets().find((entry) => entry.endsWith(".css"))!;
    const file = readFileSync(path.join(clientDir, name));
    for (const accept of ["gzip", "br;q=0, gzip"]) {
      const response = await get(`/build/${name}`, { "Accept-Encoding": accept });
      expect(response.headers["content-encoding"], accept).toBe("gzip");
      expect(response.headers["content-type"]).toMatch(/^text\/css/);
      expect(response.body.equals(readFileSync(path.join(clientDir, `${name}.gz`))), accept).toBe(true);
      expect(gunzipSync(response.body).equals(file), accept).toBe(true);
    }
  });

  it("sends the file as it is to a client that accepts no encoding, and a HEAD gets the headers only", async () => {
    const name = assets().find((entry) => entry.endsWith(".js"))!;
    const file = readFileSync(path.join(clientDir, name));
    for (const headers of [{}, { "Accept-Encoding": "identity" }] as Record<string, string>[]) {
      const response = await get(`/build/${name}`, headers);
      expect(response.headers["content-encoding"]).toBeUndefined();
      expect(response.body.equals(file)).toBe(true);
    }
    const head = await get(`/build/${name}`, { "Accept-Encoding": "br" }, "HEAD");
    expect(head.status).toBe(200);
    expect(head.headers["content-encoding"]).toBe("br");
    expect(head.body.length).toBe(0);
  });

  it("answers 404 for a file the build does not have, and 400 for a path that is not valid UTF-8", async () => {
    expect((await get("/build/no-such-chunk.js", { "Accept-Encoding": "br" })).status).toBe(404);
    expect((await get("/build/%E0%A4%A.js", { "Accept-Encoding": "br" })).status).toBe(400);
  });
});
