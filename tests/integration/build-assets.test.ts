import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureFreshBuild, TEST_BUILD_DIR } from "../support/app-processes";
import { send, startTestServer } from "../support/http-app";

/**
 * The browser build is sent precompressed: the build writes `.br` and `.gz`
 * beside every script and stylesheet (scripts/build.js), and the server sends
 * the one the client accepts (server/app.ts) instead of compressing again for
 * each visitor.
 */

const clientDir = path.join(TEST_BUILD_DIR, "client");
let server: Awaited<ReturnType<typeof startTestServer>>;

function assets(): string[] {
  return readdirSync(clientDir, { recursive: true, encoding: "utf8" }).filter((name) => /\.(js|css)$/.test(name));
}

function get(pathname: string, headers: Record<string, string>, method = "GET") {
  return send(server.port, { method, path: pathname, headers });
}

beforeAll(async () => {
  await ensureFreshBuild();
  server = await startTestServer({ BUILD_DIR: TEST_BUILD_DIR });
}, 300_000);

afterAll(() => server.close());

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
    expect(response.bytes.equals(readFileSync(path.join(clientDir, `${name}.br`)))).toBe(true);
    expect(Number(response.headers["content-length"])).toBe(response.bytes.length);
    expect(brotliDecompressSync(response.bytes).equals(readFileSync(path.join(clientDir, name)))).toBe(true);
  });

  it("sends gzip to a client without brotli, or that refuses it with q=0", async () => {
    const name = assets().find((entry) => entry.endsWith(".css"))!;
    const file = readFileSync(path.join(clientDir, name));
    for (const accept of ["gzip", "br;q=0, gzip"]) {
      const response = await get(`/build/${name}`, { "Accept-Encoding": accept });
      expect(response.headers["content-encoding"], accept).toBe("gzip");
      expect(response.headers["content-type"]).toMatch(/^text\/css/);
      expect(response.bytes.equals(readFileSync(path.join(clientDir, `${name}.gz`))), accept).toBe(true);
      expect(gunzipSync(response.bytes).equals(file), accept).toBe(true);
    }
  });

  it("sends the file as it is to a client that accepts no encoding, and a HEAD gets the headers only", async () => {
    const name = assets().find((entry) => entry.endsWith(".js"))!;
    const file = readFileSync(path.join(clientDir, name));
    for (const headers of [{}, { "Accept-Encoding": "identity" }] as Record<string, string>[]) {
      const response = await get(`/build/${name}`, headers);
      expect(response.headers["content-encoding"]).toBeUndefined();
      expect(response.bytes.equals(file)).toBe(true);
    }
    const head = await get(`/build/${name}`, { "Accept-Encoding": "br" }, "HEAD");
    expect(head.status).toBe(200);
    expect(head.headers["content-encoding"]).toBe("br");
    expect(head.bytes.length).toBe(0);
  });

  it("answers 404 for a file the build does not have, and 400 for a path that is not valid UTF-8", async () => {
    expect((await get("/build/no-such-chunk.js", { "Accept-Encoding": "br" })).status).toBe(404);
    expect((await get("/build/%E0%A4%A.js", { "Accept-Encoding": "br" })).status).toBe(400);
  });
});
