import sharp from "sharp";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { getConfig } from "../../app/lib/server/config.server";
import { BASE_URL } from "../support/requests";
import {
  action as uploadApi,
  loader as uploadApiLoader,
} from "../../app/routes/api.admin.products.upload-image";
import { MAX_UPLOAD_BYTES } from "../../app/services/uploads.server";
import { resetDatabase } from "../support/database";
import {
  bmpBytes,
  createCallers,
  file,
  GIF_BYTES,
  JPEG_BYTES,
  jsonRequest,
  multipartRequest,
  PNG_BYTES,
  readApi,
  run,
  SVG_WITH_SCRIPT,
  WEBP_BYTES,
  type Callers,
} from "./admin-support";

const ENDPOINT = "/api/admin/products/upload-image";

/** The file behind an upload's absolute result.url (the API answers absolute URLs, docs/architecture.md, rule 11). */
function storedFile(url: string) {
  return path.join(getConfig().uploadDir, url.replace(`${getConfig().appUrl}/uploads/`, ""));
}

function upload(fields: Record<string, string | File>, cookie: string | null) {
  return run(uploadApi, multipartRequest(ENDPOINT, fields, cookie));
}

let callers: Callers;
beforeEach(async () => {
  await resetDatabase();
  callers = await createCallers();
});

describe("POST /api/admin/products/upload-image", () => {
  it("refuses anonymous callers (401) and shoppers (403) and stores nothing", async () => {
    const before = existsSync(getConfig().uploadDir) ? readdirSync(getConfig().uploadDir).length : 0;
    const anonymous = await upload({ my_file: file(PNG_BYTES, "a.png", "image/png") }, null);
    expect(anonymous.status).toBe(401);
    const shopper = await upload({ my_file: file(PNG_BYTES, "a.png", "image/png") }, callers.shopper);
    expect(shopper.status).toBe(403);
    expect((await readApi(shopper)).success).toBe(false);
    const after = existsSync(getConfig().uploadDir) ? readdirSync(getConfig().uploadDir).length : 0;
    expect(after).toBe(before);
  });

  it.each([
    ["png", PNG_BYTES, "photo.png"],
    ["jpg", JPEG_BYTES, "photo.jpeg"],
    ["gif", GIF_BYTES, "anim.gif"],
    ["webp", WEBP_BYTES, "pic.webp"],
    ["bmp", bmpBytes(), "old.bmp"],
  ] as const)("stores a %s under a generated name (201, result.url)", async (extension, bytes, name) => {
    const response = await upload(
      { my_file: file(bytes, `../../${name}`, "application/octet-stream") },
      callers.admin,
    );
    expect(response.status).toBe(201);
    const body = await readApi(response);
    expect(body).toMatchObject({ success: true, result: { url: expect.any(String) } });
    const url = body.result!.url;
    expect(url).toMatch(new RegExp(`^${getConfig().appUrl}/uploads/[0-9a-f-]{36}\\.${extension}$`));
    const stored = readFileSync(storedFile(url));
    if (extension === "bmp") {
      // libvips reads no BMP (and BMP carries no EXIF): kept byte for byte.
      expect(stored).toEqual(Buffer.from(bytes));
    } else {
      // Re-encoded without metadata (images.server.ts): the same kind of picture, the same size.
      const [before, after] = await Promise.all([sharp(bytes).metadata(), sharp(stored).metadata()]);
      expect({ format: after.format, width: after.width, height: after.height }).toEqual({
        format: before.format,
        width: before.width,
        height: before.height,
      });
    }
  });

  it("names the type by the bytes, not by the client's name or MIME type", async () => {
    const response = await upload({ my_file: file(PNG_BYTES, "picture.gif", "image/gif") }, callers.admin);
    expect((await readApi(response)).result?.url).toMatch(/\.png$/);
  });

  it("refuses a renamed non-image with 400 and the spec's message", async () => {
    const response = await upload(
      { my_file: file("#!/bin/sh\necho pwned\n", "holiday.jpg", "image/jpeg") },
      callers.admin,
    );
    expect(response.status).toBe(400);
    expect(await readApi(response)).toEqual({
      success: false,
      message: "Please upload an image file (jpg, jpeg, png, gif, webp, svg or bmp)",
      errors: { my_file: ["Please upload an image file (jpg, jpeg, png, gif, webp, svg or bmp)"] },
    });
  });

  it("refuses an HTML page dressed as an SVG", async () => {
    const response = await upload(
      { my_file: file("<html><body><script>alert(1)</script></body></html>", "x.svg", "image/svg+xml") },
      callers.admin,
    );
    expect(response.status).toBe(400);
  });

  it("refuses a file over 5 MB with 413, and stores nothing", async () => {
    const big = new Uint8Array(MAX_UPLOAD_BYTES + 1);
    big.set(PNG_BYTES);
    const before = existsSync(getConfig().uploadDir) ? readdirSync(getConfig().uploadDir).length : 0;
    const response = await upload({ my_file: file(big, "huge.png", "image/png") }, callers.admin);
    expect(response.status).toBe(413);
    expect(await readApi(response)).toMatchObject({
      success: false,
      message: "The image must be at most 5 MB",
    });
    const after = existsSync(getConfig().uploadDir) ? readdirSync(getConfig().uploadDir).length : 0;
    expect(after).toBe(before);
  });

  it("accepts a file of exactly 5 MB", async () => {
    const exact = new Uint8Array(MAX_UPLOAD_BYTES);
    exact.set(PNG_BYTES);
    const response = await upload({ my_file: file(exact, "big.png", "image/png") }, callers.admin);
    expect(response.status).toBe(201);
  });

  it("stores an SVG only without its scripts and event handlers", async () => {
    const response = await upload(
      { my_file: file(SVG_WITH_SCRIPT, "logo.svg", "image/svg+xml") },
      callers.admin,
    );
    expect(response.status).toBe(201);
    const url = (await readApi(response)).result!.url;
    expect(url).toMatch(/\.svg$/);
    const stored = readFileSync(storedFile(url), "utf8");
    expect(stored).not.toMatch(/<script|onload|onclick|javascript:|<iframe/i);
    expect(stored).toContain("<rect");
  });

  it("answers 400 when no file was chosen, and ignores other file fields", async () => {
    const none = await upload({ my_file: file("", "", "application/octet-stream") }, callers.admin);
    expect(none.status).toBe(400);
    expect((await readApi(none)).errors).toEqual({ my_file: ["Choose an image to upload"] });
    const wrongField = await upload({ picture: file(PNG_BYTES, "a.png", "image/png") }, callers.admin);
    expect(wrongField.status).toBe(400);
    const empty = await upload({ my_file: file(new Uint8Array(), "empty.png", "image/png") }, callers.admin);
    expect(empty.status).toBe(400);
    expect((await readApi(empty)).message).toBe("The file is empty");
  });

  it("answers 415 for a body that is not multipart, 400 for a broken one, 405 for GET", async () => {
    const asJson = await run(
      uploadApi,
      jsonRequest(ENDPOINT, { json: { my_file: "x" }, cookie: callers.admin }),
    );
    expect(asJson.status).toBe(415);
    const broken = await run(
      uploadApi,
      new Request(`${BASE_URL}${ENDPOINT}`, {
        method: "POST",
        headers: { "Content-Type": "multipart/form-data; boundary=xyz", Cookie: callers.admin },
        body: '--xyz\r\nContent-Disposition: form-data; name="my_file"; filename="a.png"\r\n\r\nunterminated',
      }),
    );
    expect(broken.status).toBeGreaterThanOrEqual(400);
    expect(broken.status).toBeLessThan(500);
    expect((await readApi(broken)).success).toBe(false);
    const get = await run(uploadApiLoader, jsonRequest(ENDPOINT, { cookie: callers.admin }));
    expect(get.status).toBe(405);
  });

  it("refuses a request that declares more than the limit before reading it (413)", async () => {
    const response = await run(
      uploadApi,
      new Request(`${BASE_URL}${ENDPOINT}`, {
        method: "POST",
        headers: {
          "Content-Type": "multipart/form-data; boundary=xyz",
          "Content-Length": String(50 * 1024 * 1024),
          Cookie: callers.admin,
        },
        body: "--xyz--\r\n",
      }),
    );
    expect(response.status).toBe(413);
  });

  it("refuses oversized text fields with 413", async () => {
    const response = await upload(
      { note: "x".repeat(70 * 1024), my_file: file(PNG_BYTES, "a.png", "image/png") },
      callers.admin,
    );
    expect(response.status).toBe(413);
  });
});
