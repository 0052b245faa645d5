import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import type { ServerBuild } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "../../app/lib/server/config.server";
import { createLocalStorage, isStorageKey } from "../../app/lib/server/storage.server";
import { createApp, UPLOADS_CSP } from "../../server/app";

describe("local storage", () => {
  const directory = mkdtempSync(path.join(tmpdir(), "shop-storage-"));
  const storage = createLocalStorage(path.join(directory, "uploads"));

  it("stores bytes under a generated key and gives its /uploads URL", async () => {
    const stored = await storage.put({
      data: Uint8Array.from([1, 2, 3]),
      extension: "png",
      contentType: "image/png",
    });
    expect(isStorageKey(stored.key)).toBe(true);
    expect(stored.url).toBe(`/uploads/${stored.key}`);
    expect(readFileSync(path.join(directory, "uploads", stored.key))).toEqual(Buffer.from([1, 2, 3]));
    expect(storage.keyOf(stored.url)).toBe(stored.key);
    expect(await storage.exists(stored.key)).toBe(true);
    await storage.delete(stored.key);
    expect(await storage.exists(stored.key)).toBe(false);
    await expect(storage.delete(stored.key)).resolves.toBeUndefined();
  });

  it("never names two files alike", async () => {
    const keys = new Set<string>();
    for (let i = 0; i < 20; i++) {
      keys.add(
        (await storage.put({ data: new Uint8Array([i]), extension: "gif", contentType: "image/gif" })).key,
      );
    }
    expect(keys.size).toBe(20);
  });

  it("knows only its own generated keys: no paths, no traversal", async () => {
    writeFileSync(path.join(directory, "secret.txt"), "secret");
    for (const url of [
      "/uploads/../secret.txt",
      "/uploads/..%2fsecret.txt",
      "/uploads/secret.txt",
      "/images/products/a.svg",
      "https://cdn.example.com/a.png",
    ]) {
      expect(storage.keyOf(url)).toBeNull();
    }
    expect(await storage.exists("../secret.txt")).toBe(false);
    await storage.delete("../secret.txt");
    expect(existsSync(path.join(directory, "secret.txt"))).toBe(true);
    await expect(
      storage.put({ data: new Uint8Array([1]), extension: "../x", contentType: "image/png" }),
    ).rejects.toThrow();
  });
});

describe("serving /uploads", () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "shop-serve-"));
  const config = parseConfig({
    DATA_DIR: dataDir,
    SESSION_SECRET: "serve-test-secret-0123456789",
    LOG_REQUESTS: "false",
  });
  let base = "";
  let close = () => {};
  let key = "";

  beforeAll(async () => {
    const storage = createLocalStorage(config.uploadDir);
    key = (
      await storage.put({
        data: new TextEncoder().encode("<svg xmlns='http://www.w3.org/2000/svg'/>"),
        extension: "svg",
        contentType: "image/svg+xml",
      })
    ).key;
    // The server build is never reached by these requests.
    const app = createApp({ build: {} as ServerBuild, config, publicDir: path.join(dataDir, "public") });
    const server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => server.close();
  });
  afterAll(() => close());

  it("serves an upload with a year's cache, nosniff and a sandboxing CSP", async () => {
    const response = await fetch(`${base}/uploads/${key}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toMatch(/^image\/svg\+xml/);
    expect(response.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
    expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(response.headers.get("Content-Security-Policy")).toBe(UPLOADS_CSP);
    expect(UPLOADS_CSP).toContain("sandbox");
    expect(UPLOADS_CSP).toContain("default-src 'none'");
  });

  it("lists no folder and serves nothing outside it", async () => {
    writeFileSync(path.join(dataDir, "postgres-password"), "not for you");
    for (const url of ["/uploads/", "/uploads/../postgres-password", "/uploads/%2e%2e/postgres-password"]) {
      const response = await fetch(`${base}${url}`, { redirect: "manual" });
      expect(await response.text()).not.toContain("not for you");
    }
  });
});
