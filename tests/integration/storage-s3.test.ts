import type { AddressInfo } from "node:net";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "../support/app-processes";
import { HeadObjectCommand } from "@aws-sdk/client-s3";
import type { ServerBuild } from "react-router";
import sharp from "sharp";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { parseConfig } from "../../app/lib/server/config.server";
import { AppError } from "../../app/lib/server/errors.server";
import { createS3Client, createS3Storage } from "../../app/lib/server/s3-storage.server";
import { setStorage, storagePublicBaseUrl, type FileStorage } from "../../app/lib/server/storage.server";
import { action as uploadApi } from "../../app/routes/api.admin.products.upload-image";
import { deleteUploadIfUnused, MAX_UPLOAD_BYTES } from "../../app/services/uploads.server";
import { createApp, UPLOADS_CSP } from "../../server/app";
import { resetDatabase } from "../support/database";
import { startLocalS3, type LocalS3 } from "../support/s3";
import {
  createCallers,
  file,
  multipartRequest,
  PNG_BYTES,
  readApi,
  run,
  SVG_WITH_SCRIPT,
  type Callers,
} from "./admin-support";
import { canonicalImageReference } from "../../app/lib/server/public-url.server";

/**
 * The S3 path of the upload storage against a real S3-compatible server
 * (s3rver on a free port): the same rules as the local folder.
 */
const ENDPOINT = "/api/admin/products/upload-image";
const APP_URL = "https://shop.example.com";

let s3: LocalS3;
let storage: FileStorage;
let callers: Callers;

beforeAll(async () => {
  s3 = await startLocalS3(await freePort());
  storage = createS3Storage(s3.config, APP_URL);
});
afterAll(async () => {
  setStorage(undefined);
  await s3.close();
});
beforeEach(async () => {
  await resetDatabase();
  callers = await createCallers();
  setStorage(storage);
});

function upload(fields: Record<string, string | File>, cookie: string | null) {
  return run(uploadApi, multipartRequest(ENDPOINT, fields, cookie));
}

describe("S3 storage", () => {
  it("puts an object under a generated key with its type and a year's cache, reads and deletes it", async () => {
    const stored = await storage.put({ data: PNG_BYTES, extension: "png", contentType: "image/png" });
    expect(stored.url).toBe(`/uploads/${stored.key}`);
    expect(storage.keyOf(stored.url)).toBe(stored.key);
    expect(await s3.keys()).toContain(stored.key);
    const head = await (
      await createS3Client(s3.config)
    ).send(new HeadObjectCommand({ Bucket: s3.config.bucket, Key: stored.key }));
    expect(head.ContentType).toBe("image/png");
    expect(head.CacheControl).toBe("public, max-age=31536000, immutable");
    expect(await storage.exists(stored.key)).toBe(true);
    const read = await storage.read(stored.key);
    expect(Buffer.from(read!.data)).toEqual(Buffer.from(PNG_BYTES));
    expect(read!.contentType).toBe("image/png");
    await storage.delete(stored.key);
    expect(await storage.exists(stored.key)).toBe(false);
    expect(await storage.read(stored.key)).toBeNull();
    await expect(storage.delete(stored.key)).resolves.toBeUndefined();
  });

  it("knows only its own generated keys: no paths, no other hosts", async () => {
    for (const url of [
      "/uploads/../x.png",
      "/uploads/secret.txt",
      "/images/a.svg",
      "https://cdn.example.com/a.png",
    ]) {
      expect(storage.keyOf(url)).toBeNull();
    }
    expect(await storage.exists("../x.png")).toBe(false);
    expect(await storage.read("../x.png")).toBeNull();
  });

  it("answers the shop's /uploads/ as its public base URL, or S3_PUBLIC_URL when the bucket is public", async () => {
    expect(storagePublicBaseUrl()).toBe(`${APP_URL}/uploads/`);
    const cdn = createS3Storage({ ...s3.config, publicUrl: "https://cdn.example.com/shop" }, APP_URL);
    expect(cdn.publicBaseUrl).toBe("https://cdn.example.com/shop/");
    const stored = await cdn.put({ data: PNG_BYTES, extension: "png", contentType: "image/png" });
    expect(stored.url).toBe(`https://cdn.example.com/shop/${stored.key}`);
    expect(cdn.keyOf(stored.url)).toBe(stored.key);
    // URLs stored before the bucket went public still belong to the store.
    expect(cdn.keyOf(`/uploads/${stored.key}`)).toBe(stored.key);
    expect(cdn.keyOf(`https://other.example.com/shop/${stored.key}`)).toBeNull();
  });

  it("stores an admin's upload in the bucket, pixel for pixel", async () => {
    const response = await upload({ my_file: file(PNG_BYTES, "a.png", "image/png") }, callers.admin);
    expect(response.status).toBe(201);
    const url = (await readApi(response)).result!.url as string;
    // The API answers the absolute URL on APP_URL; the store knows its path.
    expect(url).toMatch(/^https?:\/\//);
    const key = storage.keyOf(canonicalImageReference(url) as string)!;
    expect(await s3.keys()).toContain(key);
    // Re-encoded without metadata (images.server.ts); PNG is lossless, so the pixels are the same.
    const pixels = (bytes: Uint8Array) => sharp(bytes).ensureAlpha().raw().toBuffer();
    expect(await pixels((await storage.read(key))!.data)).toEqual(await pixels(PNG_BYTES));
  });

  it("stores an SVG only after sanitising it", async () => {
    const response = await upload(
      { my_file: file(SVG_WITH_SCRIPT, "x.svg", "image/svg+xml") },
      callers.admin,
    );
    expect(response.status).toBe(201);
    const key = storage.keyOf(canonicalImageReference((await readApi(response)).result!.url) as string)!;
    const text = new TextDecoder().decode((await storage.read(key))!.data);
    expect(text).toContain("<svg");
    expect(text).not.toMatch(/<script|onload|onclick|javascript:|foreignObject|iframe/i);
  });

  it("refuses a file above 5 MB (413) and a non-image (400) and puts nothing in the bucket", async () => {
    const before = (await s3.keys()).length;
    const big = new Uint8Array(MAX_UPLOAD_BYTES + 1);
    big.set(PNG_BYTES);
    expect((await upload({ my_file: file(big, "big.png", "image/png") }, callers.admin)).status).toBe(413);
    const text = file("just text", "fake.png", "image/png");
    expect((await upload({ my_file: text }, callers.admin)).status).toBe(400);
    expect((await s3.keys()).length).toBe(before);
  });

  it("removes an object once nothing refers to it", async () => {
    const stored = await storage.put({ data: PNG_BYTES, extension: "png", contentType: "image/png" });
    expect(await deleteUploadIfUnused(stored.url)).toBe(true);
    expect(await s3.keys()).not.toContain(stored.key);
  });

  it("answers 503 with Retry-After when the bucket cannot be reached, never a 500", async () => {
    const down = createS3Storage({ ...s3.config, endpoint: `http://127.0.0.1:${await freePort()}` }, APP_URL);
    setStorage(down);
    const response = await upload({ my_file: file(PNG_BYTES, "a.png", "image/png") }, callers.admin);
    expect(response.status).toBe(503);
    expect(response.headers.get("Retry-After")).toBe("30");
    await expect(down.put({ data: PNG_BYTES, extension: "png", contentType: "image/png" })).rejects.toThrow(
      AppError,
    );
  });
});

describe("serving uploads from the bucket", () => {
  let base = "";
  let close = () => {};

  beforeAll(async () => {
    const config = parseConfig({
      DATA_DIR: mkdtempSync(path.join(tmpdir(), "shop-s3-serve-")),
      SESSION_SECRET: "serve-test-secret-0123456789",
      LOG_REQUESTS: "false",
      ...s3.env,
    });
    const app = createApp({
      build: {} as ServerBuild,
      config,
      publicDir: path.join(config.dataDir, "public"),
    });
    const server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => server.close();
  });
  afterAll(() => close());

  it("serves an object at /uploads/<key> with its type, a year's cache, nosniff and the sandboxing CSP", async () => {
    const svg = new TextEncoder().encode("<svg xmlns='http://www.w3.org/2000/svg'/>");
    const stored = await storage.put({ data: svg, extension: "svg", contentType: "image/svg+xml" });
    const response = await fetch(`${base}${stored.url}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toMatch(/^image\/svg\+xml/);
    expect(response.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
    expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(response.headers.get("Content-Security-Policy")).toBe(UPLOADS_CSP);
    expect(Buffer.from(await response.arrayBuffer())).toEqual(Buffer.from(svg));
    const again = await fetch(`${base}${stored.url}`, {
      // fetch adds "Cache-Control: no-cache" to conditional requests unless one is given.
      headers: { "If-None-Match": response.headers.get("ETag") ?? "", "Cache-Control": "max-age=0" },
    });
    expect(again.status).toBe(304);
  });
});
