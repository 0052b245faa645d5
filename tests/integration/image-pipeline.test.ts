import { existsSync, mkdtempSync, readdirSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { deflateSync } from "node:zlib";
import type { ServerBuild } from "react-router";
import sharp from "sharp";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { parseConfig, type AppConfig } from "../../app/lib/server/config.server";
import { createS3Storage } from "../../app/lib/server/s3-storage.server";
import {
  createLocalStorage,
  setStorage,
  widthKeyOf,
  type FileStorage,
} from "../../app/lib/server/storage.server";
import { IMAGE_FORMATS, IMAGE_WIDTHS } from "../../app/lib/shared/images";
import { getDb } from "../../app/models/db.server";
import { action as uploadApi } from "../../app/routes/api.admin.products.upload-image";
import { backfillImages } from "../../app/services/image-backfill.server";
import {
  getImageQueue,
  ImageQueue,
  QUEUE_FULL_MESSAGE,
  setImageQueue,
} from "../../app/services/image-queue.server";
import { imageInfo, imageInfos } from "../../app/services/images.server";
import {
  TOO_MANY_PIXELS_MESSAGE,
  UNREADABLE_IMAGE_MESSAGE,
} from "../../app/services/image-processing.server";
import { storeImage } from "../../app/services/uploads.server";
import { createApp, UPLOADS_CSP } from "../../server/app";
import { resetDatabase } from "../support/database";
import { startLocalS3, type LocalS3 } from "../support/s3";
import { freePort } from "../support/app-processes";
import {
  createCallers,
  createProductRow,
  file,
  multipartRequest,
  readApi,
  run,
  SVG_WITH_SCRIPT,
  type Callers,
  uploaded,
} from "./admin-support";

/**
 * The image pipeline end to end with real sharp on bytes made here: what an
 * upload becomes, what /uploads/<key>?w= serves (folder and bucket), the
 * backfill and the queue.
 */
const ENDPOINT = "/api/admin/products/upload-image";

let callers: Callers;
let storage: FileStorage;
let uploadDir: string;

function newLocalStore() {
  uploadDir = path.join(mkdtempSync(path.join(tmpdir(), "shop-images-")), "uploads");
  storage = createLocalStorage(uploadDir);
  setStorage(storage);
}

beforeEach(async () => {
  await resetDatabase();
  await getDb().sequelize.query("TRUNCATE uploaded_images");
  callers = await createCallers();
  newLocalStore();
});
afterAll(() => setStorage(undefined));

const storedFiles = () => (existsSync(uploadDir) ? readdirSync(uploadDir) : []);

function upload(bytes: Uint8Array, name = "photo.jpg") {
  return run(
    uploadApi,
    multipartRequest(ENDPOINT, { my_file: file(bytes, name, "application/octet-stream") }, callers.admin),
  );
}

async function uploadedKey(bytes: Uint8Array, name?: string): Promise<string> {
  const response = await upload(bytes, name);
  expect(response.status).toBe(201);
  const url = (await readApi(response)).result!.url as string;
  return url.slice(url.lastIndexOf("/") + 1);
}

const read = async (key: string) => Buffer.from((await storage.read(key))!.data);

/** A photo as a phone writes it: EXIF with a GPS position, lying on its side (orientation 6). */
function phonePhoto(width = 200, height = 100) {
  return sharp({ create: { width, height, channels: 3, background: "#c33" } })
    .jpeg()
    .withExif({
      IFD0: { Make: "PhoneMaker", Model: "Phone 9" },
      IFD3: { GPSLatitudeRef: "N", GPSLatitude: "48/1 51/1 24/1" },
    })
    .withMetadata({ orientation: 6 })
    .toBuffer();
}

/** A PNG whose IHDR declares `width`×`height` (correct CRCs) with one tiny compressed row: a bomb's header. */
function pngDeclaring(width: number, height: number): Uint8Array {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const check = Buffer.alloc(4);
    check.writeUInt32BE(crc(body));
    return Buffer.concat([length, body, check]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(Buffer.alloc(1 + width * 3))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

async function rowCount(): Promise<number> {
  const [rows] = await getDb().sequelize.query("SELECT count(*)::int AS n FROM uploaded_images");
  return (rows as { n: number }[])[0]!.n;
}

describe("an upload is refused before anything is stored", () => {
  it("refuses a decompression bomb (50000×50000 declared) with 413 from its header: nothing stored", async () => {
    const response = await upload(pngDeclaring(50_000, 50_000), "bomb.png");
    expect(response.status).toBe(413);
    expect((await readApi(response)).message).toBe(TOO_MANY_PIXELS_MESSAGE);
    expect(storedFiles()).toEqual([]);
    expect(await rowCount()).toBe(0);
  });

  it("refuses a truncated JPEG with 400 and a clear message: nothing stored", async () => {
    const whole = await sharp({ create: { width: 300, height: 200, channels: 3, background: "#3c3" } })
      .jpeg()
      .toBuffer();
    const response = await upload(whole.subarray(0, Math.floor(whole.length / 2)), "cut.jpg");
    expect(response.status).toBe(400);
    expect((await readApi(response)).message).toBe(UNREADABLE_IMAGE_MESSAGE);
    expect(storedFiles()).toEqual([]);
    expect(await rowCount()).toBe(0);
  });

  it("answers 503 with Retry-After when the processing queue is full, and stores nothing", async () => {
    const queue = new ImageQueue(1, 1);
    setImageQueue(queue);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    try {
      // One job running and one waiting: the queue is full.
      const held = [queue.run(() => gate), queue.run(() => gate)];
      expect(queue.isFull).toBe(true);
      const response = await upload(await phonePhoto(), "busy.jpg");
      expect(response.status).toBe(503);
      expect(response.headers.get("Retry-After")).toBe("10");
      expect((await readApi(response)).message).toBe(QUEUE_FULL_MESSAGE);
      expect(storedFiles()).toEqual([]);
      release();
      await Promise.all(held);
      // Free again: the same upload goes through.
      expect((await upload(await phonePhoto(), "busy.jpg")).status).toBe(201);
    } finally {
      release();
      setImageQueue(undefined);
    }
    expect(getImageQueue()).not.toBe(queue);
  });
});

describe("what an upload becomes", () => {
  it("strips EXIF and GPS from the original and every width", async () => {
    const photo = await phonePhoto(1000, 600);
    expect((await sharp(photo).metadata()).exif?.includes(Buffer.from("PhoneMaker"))).toBe(true);
    const key = await uploadedKey(photo);
    const info = (await imageInfo(`/uploads/${key}`))!;
    const keys = [key, ...info.widths.flatMap((w) => IMAGE_FORMATS.map((f) => widthKeyOf(key, w, f)))];
    expect(keys.length).toBe(1 + 2 * info.widths.length);
    for (const stored of keys) {
      const metadata = await sharp(await read(stored)).metadata();
      expect({
        stored,
        exif: metadata.exif,
        xmp: metadata.xmp,
        iptc: metadata.iptc,
        icc: metadata.icc,
      }).toEqual({
        stored,
        exif: undefined,
        xmp: undefined,
        iptc: undefined,
        icc: undefined,
      });
      expect(metadata.orientation).toBeUndefined();
    }
  });

  it("turns the picture upright by its EXIF orientation: 200×100 with orientation 6 becomes 100×200", async () => {
    const key = await uploadedKey(await phonePhoto(200, 100));
    const metadata = await sharp(await read(key)).metadata();
    expect([metadata.width, metadata.height]).toEqual([100, 200]);
    expect(await imageInfo(`/uploads/${key}`)).toMatchObject({
      key,
      width: 100,
      height: 200,
      contentType: "image/jpeg",
      widths: [100],
    });
  });

  it("keeps transparency in the PNG original and in its WebP and AVIF widths", async () => {
    const png = await sharp({
      create: { width: 400, height: 300, channels: 4, background: { r: 0, g: 0, b: 255, alpha: 0.25 } },
    })
      .png()
      .toBuffer();
    const key = await uploadedKey(png, "logo.png");
    const original = await sharp(await read(key)).metadata();
    expect([original.format, original.hasAlpha]).toEqual(["png", true]);
    for (const format of IMAGE_FORMATS) {
      for (const width of [160, 320, 400]) {
        const stored = await read(widthKeyOf(key, width, format));
        const metadata = await sharp(stored).metadata();
        expect({ format, width, alpha: metadata.hasAlpha }).toEqual({ format, width, alpha: true });
        // The pixels are really see-through, not an opaque alpha channel.
        const { data } = await sharp(stored).extractChannel(3).raw().toBuffer({ resolveWithObject: true });
        expect(Math.max(...data)).toBeLessThan(128);
      }
    }
  });

  it("stores the list's widths below the original plus the original's own, each exactly that wide, never wider", async () => {
    const key = await uploadedKey(await phonePhoto(600, 1000)); // upright: 1000 wide
    const info = (await imageInfo(`/uploads/${key}`))!;
    expect(info.widths).toEqual([...IMAGE_WIDTHS.filter((w) => w < 1000), 1000]);
    for (const width of info.widths) {
      for (const format of IMAGE_FORMATS) {
        const metadata = await sharp(await read(widthKeyOf(key, width, format))).metadata();
        expect({ width, format: metadata.format === "heif" ? "avif" : metadata.format }).toEqual({
          width: metadata.width,
          format,
        });
      }
    }
    expect(storedFiles().sort()).toEqual(
      [key, ...info.widths.flatMap((w) => IMAGE_FORMATS.map((f) => widthKeyOf(key, w, f)))].sort(),
    );
  });

  it("keeps an SVG as a sanitised vector with no widths", async () => {
    const key = await uploadedKey(Buffer.from(SVG_WITH_SCRIPT), "drawing.svg");
    expect(storedFiles()).toEqual([key]);
    expect((await read(key)).toString()).not.toMatch(/script/i);
    expect(await imageInfo(`/uploads/${key}`)).toMatchObject({ contentType: "image/svg+xml", widths: [] });
  });

  it("answers the width and height of many URLs at once, null for what is not a processed upload", async () => {
    const key = await uploadedKey(await phonePhoto(200, 100));
    const infos = await imageInfos([`/uploads/${key}`, "/images/demo/tee.svg", "https://cdn.example/x.jpg"]);
    expect(infos.get(`/uploads/${key}`)).toMatchObject({ width: 100, height: 200 });
    expect(infos.get("/images/demo/tee.svg")).toBeNull();
    expect(infos.get("https://cdn.example/x.jpg")).toBeNull();
  });
});

async function serve(config: AppConfig) {
  const app = createApp({ build: {} as ServerBuild, config, publicDir: path.join(config.dataDir, "public") });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The same checks of `?w=` against whichever store the app serves. */
function describeServing(name: string, setup: () => Promise<{ base: string; close: () => Promise<void> }>) {
  describe(`GET /uploads/<key>?w= (${name})`, () => {
    let base: string;
    let close: () => Promise<void>;
    beforeEach(async () => ({ base, close } = await setup()));
    afterEach(() => close());

    const widthOf = async (response: Response) =>
      (await sharp(Buffer.from(await response.arrayBuffer())).metadata()).width;

    it("serves the nearest stored width at or above w, in WebP unless AVIF is asked, with the upload headers", async () => {
      const key = await uploadedKey(await phonePhoto(600, 1000));
      const cases: [string, number, string][] = [
        ["?w=300", 320, "image/webp"],
        ["?w=320", 320, "image/webp"],
        ["?w=321&format=avif", 400, "image/avif"],
        ["?w=1", 160, "image/webp"],
        ["?w=990&format=webp", 1000, "image/webp"],
        ["?w=5000", 1000, "image/webp"],
        ["?format=avif", 1000, "image/avif"],
        ["", 1000, "image/jpeg"],
      ];
      for (const [query, width, type] of cases) {
        const response = await fetch(`${base}/uploads/${key}${query}`);
        expect({ query, status: response.status, type: response.headers.get("Content-Type") }).toEqual({
          query,
          status: 200,
          type,
        });
        expect({ query, width: await widthOf(response) }).toEqual({ query, width });
        expect(response.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
        expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
        expect(response.headers.get("Content-Security-Policy")).toBe(UPLOADS_CSP);
        expect(response.headers.get("Cross-Origin-Resource-Policy")).toBe("cross-origin");
      }
    });

    it("answers 400 with a clear message for a malformed w or an unknown format", async () => {
      const key = await uploadedKey(await phonePhoto(200, 100));
      for (const query of ["?w=abc", "?w=0", "?w=-5", "?w=1.5", "?w=99999", "?w=300&w=400x"]) {
        const response = await fetch(`${base}/uploads/${key}${query}`);
        expect({ query, status: response.status }).toEqual({ query, status: 400 });
        expect(await response.text()).toMatch(/^w must be a whole number of pixels/);
      }
      const response = await fetch(`${base}/uploads/${key}?w=100&format=tiff`);
      expect(response.status).toBe(400);
      expect(await response.text()).toBe("format must be avif or webp");
    });

    it("serves an SVG as it is whatever width is asked", async () => {
      const key = await uploadedKey(Buffer.from(SVG_WITH_SCRIPT), "drawing.svg");
      const response = await fetch(`${base}/uploads/${key}?w=320`);
      expect(response.status).toBe(200);
      expect(response.headers.get("Content-Type")).toMatch(/^image\/svg\+xml/);
    });

    it("serves a width the list gained but the backfill has not stored yet as the nearest stored one, cached briefly", async () => {
      const key = await uploadedKey(await phonePhoto(600, 1000)); // upright: 1000 wide
      // Processed under a list without 400: its row and its files lack it.
      for (const format of IMAGE_FORMATS) await storage.delete(widthKeyOf(key, 400, format));
      await getDb().sequelize.query(
        `UPDATE uploaded_images SET widths = array_remove(widths, 400) WHERE key = :key`,
        { replacements: { key } },
      );
      const response = await fetch(`${base}/uploads/${widthKeyOf(key, 400, "avif")}`);
      expect(response.status).toBe(200);
      expect(response.headers.get("Content-Type")).toBe("image/avif");
      expect(await widthOf(response)).toBe(640);
      expect(response.headers.get("Cache-Control")).toBe("public, max-age=300");
      expect(response.headers.get("Content-Security-Policy")).toBe(UPLOADS_CSP);
      // A stored width is served as itself, for a year.
      const stored = await fetch(`${base}/uploads/${widthKeyOf(key, 320, "webp")}`);
      expect([stored.status, await widthOf(stored)]).toEqual([200, 320]);
      expect(stored.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
      // A width of an upload the shop has no record of is not made up from anything: it goes on to the pages'
      // handler (the shop's 404 page; this test app has no pages, so it fails there), never as an image.
      const unknown = await fetch(
        `${base}/uploads/${widthKeyOf("0b9a3c1e-7a51-4d41-9d39-7c5f0e3a2b10.jpg", 400, "avif")}`,
      );
      expect(unknown.headers.get("Content-Type")).not.toMatch(/^image\//);
    });

    it("serves the original, cached briefly, for an upload the pipeline has not processed yet", async () => {
      const stored = await storage.put({
        data: await phonePhoto(),
        extension: "jpg",
        contentType: "image/jpeg",
      });
      const response = await fetch(`${base}/uploads/${stored.key}?w=320`);
      expect(response.status).toBe(200);
      expect(response.headers.get("Content-Type")).toBe("image/jpeg");
      expect(response.headers.get("Cache-Control")).toBe("public, max-age=300");
    });
  });
}

describeServing("local folder", async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "shop-images-serve-"));
  const config = parseConfig({
    DATA_DIR: dataDir,
    UPLOAD_DIR: path.join(dataDir, "uploads"),
    SESSION_SECRET: "serve-test-secret-0123456789",
    LOG_REQUESTS: "false",
  });
  uploadDir = config.uploadDir;
  storage = createLocalStorage(uploadDir);
  setStorage(storage);
  return serve(config);
});

describe("on S3", () => {
  let s3: LocalS3;
  beforeAll(async () => {
    s3 = await startLocalS3(await freePort());
  });
  afterAll(() => s3.close());

  describeServing("S3 bucket", async () => {
    const config = parseConfig({
      DATA_DIR: mkdtempSync(path.join(tmpdir(), "shop-images-s3-")),
      SESSION_SECRET: "serve-test-secret-0123456789",
      LOG_REQUESTS: "false",
      ...s3.env,
    });
    storage = createS3Storage(s3.config, "http://127.0.0.1");
    setStorage(storage);
    uploadDir = path.join(config.dataDir, "never-used");
    return serve(config);
  });

  it("keeps the widths in the bucket beside the original, named from its key", async () => {
    storage = createS3Storage(s3.config, "http://127.0.0.1");
    setStorage(storage);
    const key = await uploadedKey(await phonePhoto(200, 100));
    const keys = await s3.keys();
    expect(keys).toContain(key);
    expect(keys).toContain(widthKeyOf(key, 100, "avif"));
    expect(keys).toContain(widthKeyOf(key, 100, "webp"));
  });
});

describe("images:backfill", () => {
  it("processes the uploads the database refers to once; a second run does nothing", async () => {
    // Uploads stored before the pipeline: as they came, EXIF and all.
    const old = await storage.put({
      data: await phonePhoto(600, 1000),
      extension: "jpg",
      contentType: "image/jpeg",
    });
    const svg = await storeImage(uploaded(SVG_WITH_SCRIPT, "a.svg", "image/svg+xml"));
    await getDb().sequelize.query("TRUNCATE uploaded_images");
    await createProductRow({ image: old.url });
    await createProductRow({ image: svg.url });
    await createProductRow({ image: "https://cdn.example/elsewhere.jpg" });
    const drawing = await createProductRow({ image: "/images/demo/tee.svg" });
    // A later picture of a gallery is an upload the database refers to as well.
    const back = await storage.put({
      data: await phonePhoto(400, 300),
      extension: "jpg",
      contentType: "image/jpeg",
    });
    await getDb().sequelize.query(
      `INSERT INTO product_images (product_id, position, url, alt) VALUES (:id, 0, '/images/demo/tee.svg', ''), (:id, 1, :url, 'Back')`,
      { replacements: { id: drawing.id, url: back.url } },
    );

    const first = await backfillImages();
    expect(first).toMatchObject({ processed: 3, missing: 0, unreadable: 0 });
    expect(await imageInfo(back.url)).toMatchObject({ width: 300, height: 400 });
    const info = (await imageInfo(old.url))!;
    expect(info).toMatchObject({ width: 1000, height: 600, widths: [160, 320, 400, 640, 800, 1000] });
    // The original at the same key is now upright and metadata-free.
    const original = await sharp(await read(old.key)).metadata();
    expect([original.width, original.exif]).toEqual([1000, undefined]);
    expect(storedFiles()).toContain(widthKeyOf(old.key, 640, "avif"));

    const filesAfterFirst = storedFiles().sort();
    const second = await backfillImages();
    expect(second).toMatchObject({ processed: 0, missing: 0, unreadable: 0 });
    expect(storedFiles().sort()).toEqual(filesAfterFirst);
    expect((await imageInfo(old.url))!.processedAt).toEqual(info.processedAt);
  });

  it("gives an upload recorded before the width list grew the widths it lacks, from its stored original, once", async () => {
    // Recorded under an older list: no 400 or 800, a 480 and a 960 that the list no longer has.
    const key = await uploadedKey(await phonePhoto(600, 1000)); // upright: 1000 wide
    const url = `/uploads/${key}`;
    for (const width of [400, 800]) {
      for (const format of IMAGE_FORMATS) await storage.delete(widthKeyOf(key, width, format));
    }
    const oldWidths = [160, 320, 480, 640, 960, 1000];
    await getDb().sequelize.query(
      `UPDATE uploaded_images SET widths = CAST(:widths AS integer[]) WHERE key = :key`,
      { replacements: { key, widths: `{${oldWidths.join(",")}}` } },
    );
    for (const width of [480, 960]) {
      for (const format of IMAGE_FORMATS) {
        await storage.write(widthKeyOf(key, width, format), {
          data: await sharp(await read(key))
            .resize({ width })
            [format]()
            .toBuffer(),
          contentType: `image/${format}`,
        });
      }
    }
    await createProductRow({ image: url });
    const originalBefore = await read(key);
    const recordedAt = (await imageInfo(url))!.processedAt;

    const first = await backfillImages();
    expect(first).toMatchObject({ processed: 0, extended: 1, missing: 0, unreadable: 0 });
    // The new widths are stored, each exactly that wide, in every format; the old ones stay listed and stored.
    const info = (await imageInfo(url))!;
    expect(info.widths).toEqual([160, 320, 400, 480, 640, 800, 960, 1000]);
    for (const width of [400, 800]) {
      for (const format of IMAGE_FORMATS) {
        const metadata = await sharp(await read(widthKeyOf(key, width, format))).metadata();
        expect({ width, format }).toEqual({
          width: metadata.width,
          format: metadata.format === "heif" ? "avif" : metadata.format,
        });
      }
    }
    // The original is not touched, nor the row's record of when it was processed.
    expect(Buffer.compare(await read(key), originalBefore)).toBe(0);
    expect(info.processedAt).toEqual(recordedAt);

    const filesAfterFirst = storedFiles().sort();
    const second = await backfillImages();
    expect(second).toMatchObject({ processed: 0, extended: 0, missing: 0, unreadable: 0 });
    expect(storedFiles().sort()).toEqual(filesAfterFirst);
    expect((await imageInfo(url))!.widths).toEqual(info.widths);
  });

  it("does not look for widths for an SVG, which has none, nor count it as given any", async () => {
    const svg = await storeImage(uploaded(SVG_WITH_SCRIPT, "a.svg", "image/svg+xml"));
    await createProductRow({ image: svg.url });
    await backfillImages();
    const files = storedFiles().sort();
    expect(await backfillImages()).toMatchObject({ processed: 0, extended: 0 });
    expect(storedFiles().sort()).toEqual(files);
  });
});
