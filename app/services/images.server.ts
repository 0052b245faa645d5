import sharp, { type Metadata, type OutputInfo, type Sharp } from "sharp";
import { QueryTypes } from "sequelize";
import { getDb } from "~/models/db.server";
import { AppError, badRequest } from "~/lib/server/errors.server";
import { getLogger } from "~/lib/server/logger.server";
import { processSingleton } from "~/lib/server/process-singleton.server";
import {
  contentTypeOfKey,
  getStorage,
  isOriginalKey,
  widthKeyOf,
  type FileStorage,
} from "~/lib/server/storage.server";
import { IMAGE_FORMATS, widthsFor, type ImageFormat } from "~/lib/shared/images";

/**
 * The image pipeline (docs/decisions/0013-image-pipeline.md): every raster
 * upload is decoded once, turned upright by its EXIF orientation, stripped of
 * all metadata and stored again in its own format, plus AVIF and WebP widths
 * (lib/shared/images.ts) under keys derived from its own. A row in
 * uploaded_images records what was done.
 */

/** Above this many pixels (a 8000×5000 photo) an image is refused before a byte of it is decoded. */
export const MAX_INPUT_PIXELS = 40_000_000;
export const TOO_MANY_PIXELS_MESSAGE =
  "The image is too large: at most 40 megapixels (for example 8000×5000)";
export const UNREADABLE_IMAGE_MESSAGE =
  "The image could not be read: the file is damaged or incomplete. Please upload it again.";
export const QUEUE_FULL_MESSAGE =
  "Too many images are being processed right now. Please try again in a moment.";
const QUEUE_RETRY_AFTER_SECONDS = 10;

// libvips defaults to one thread per core and a large operation cache: one
// image at a time on one thread leaves the other core to the storefront, and
// nothing is kept once an image is done.
sharp.concurrency(1);
sharp.cache(false);

/**
 * Encoder settings: close to the eye's threshold, fast enough to stay inside the upload request (a 4000×3000
 * photo in about 2 s, bench/images.ts). Effort goes where phones look: the card widths (up to CARD_WIDTH) get
 * AVIF effort 3, about 20 % smaller than effort 2 at the same quality setting and closer to the source; the
 * widths up to PHONE_WIDTH effort 2; wider ones effort 0, where effort costs seconds per image (AVIF effort 2
 * at 2560 pixels: about 3 s on one core) for a few percent (bench/image-quality.ts, docs/decisions/0023).
 */
const CARD_WIDTH = 400;
const PHONE_WIDTH = 640;
const ENCODE = {
  jpeg: { quality: 88 },
  png: { compressionLevel: 6 },
  webp: { quality: 82, effort: 0 },
  avif: { quality: 55, effort: 0 },
  webpPhone: { quality: 82, effort: 2 },
  avifPhone: { quality: 55, effort: 2 },
  avifCard: { quality: 55, effort: 3 },
} as const;

type UploadField = "my_file";
const FIELD: UploadField = "my_file";

export interface ImageInfo {
  key: string;
  /** Pixel size after the EXIF rotation; null for a file kept as it is that could not be measured. */
  width: number | null;
  height: number | null;
  contentType: string;
  /** The widths stored in every format of IMAGE_FORMATS, ascending; empty for SVG, BMP and unreadable files. */
  widths: number[];
  processedAt: Date;
}

export interface ProcessedImage {
  /** The upload to store at its key: metadata-free, upright (or the sanitised bytes kept as they are). */
  original: Uint8Array;
  width: number | null;
  height: number | null;
  widths: { width: number; format: ImageFormat; data: Uint8Array }[];
}

/* ------------------------------------------------------------------ queue */

/**
 * At most `concurrency` jobs run at once; up to `maxWaiting` more wait their
 * turn; beyond that `run` refuses at once (503), so a burst of uploads queues
 * in bounded memory instead of taking every core from the storefront.
 */
export class ImageQueue {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    readonly concurrency: number,
    readonly maxWaiting: number,
  ) {}

  get isFull(): boolean {
    return this.running >= this.concurrency && this.waiting.length >= this.maxWaiting;
  }

  /** Runs `job` in turn. `mayWait` (the backfill, one job at a time) waits even when the queue is full. */
  async run<T>(job: () => Promise<T>, options: { mayWait?: boolean } = {}): Promise<T> {
    if (this.running >= this.concurrency) {
      if (this.waiting.length >= this.maxWaiting && !options.mayWait) {
        throw new AppError(
          503,
          QUEUE_FULL_MESSAGE,
          { [FIELD]: [QUEUE_FULL_MESSAGE] },
          {
            "Retry-After": String(QUEUE_RETRY_AFTER_SECONDS),
          },
        );
      }
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running += 1;
    }
    try {
      return await job();
    } finally {
      // The slot passes straight to the next in line, or is given back.
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    }
  }
}

const current = () => processSingleton<{ queue?: ImageQueue }>("image-queue", () => ({}));

/** This process's queue: one libvips job at a time, eight waiting. */
export function getImageQueue(): ImageQueue {
  return (current().queue ??= new ImageQueue(1, 8));
}

/** For tests: another queue (or the default again with undefined). */
export function setImageQueue(queue: ImageQueue | undefined): void {
  current().queue = queue;
}

/* ------------------------------------------------------------ processing */

const unreadable = () => badRequest(UNREADABLE_IMAGE_MESSAGE, { [FIELD]: [UNREADABLE_IMAGE_MESSAGE] });
const tooManyPixels = () =>
  new AppError(413, TOO_MANY_PIXELS_MESSAGE, { [FIELD]: [TOO_MANY_PIXELS_MESSAGE] });

/**
 * Reads only the header (sharp's metadata decodes no pixels) and refuses an
 * image whose declared size is above the limit: a 50000×50000 PNG of a few
 * kilobytes never gets to allocate its 10 GB.
 */
export async function checkImageHeader(bytes: Uint8Array): Promise<{ animated: boolean }> {
  let metadata: Metadata;
  try {
    metadata = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw unreadable();
  }
  const { width, height, pages = 1 } = metadata;
  const frameHeight = metadata.pageHeight ?? height;
  if (!width || !height || !frameHeight) throw unreadable();
  if (width * frameHeight * pages > MAX_INPUT_PIXELS) throw tooManyPixels();
  return { animated: pages > 1 };
}

type RasterExtension = "jpg" | "png" | "gif" | "webp";

/** Whether the pipeline decodes this type (libvips reads no BMP; an SVG stays a vector). */
export function isProcessedRaster(extension: string): extension is RasterExtension {
  return extension === "jpg" || extension === "png" || extension === "gif" || extension === "webp";
}

function encodeAs(image: Sharp, extension: RasterExtension): Sharp {
  switch (extension) {
    case "jpg":
      return image.jpeg(ENCODE.jpeg);
    case "png":
      return image.png(ENCODE.png);
    case "webp":
      return image.webp(ENCODE.webp);
    case "gif":
      return image.gif();
  }
}

function encodeWidth(image: Sharp, format: ImageFormat, width: number): Sharp {
  if (format === "webp") return image.webp(width <= PHONE_WIDTH ? ENCODE.webpPhone : ENCODE.webp);
  return image.avif(
    width <= CARD_WIDTH ? ENCODE.avifCard : width <= PHONE_WIDTH ? ENCODE.avifPhone : ENCODE.avif,
  );
}

/** The pixels of an image, upright, sRGB, decoded once (a damaged file or one above the pixel limit refused). */
async function decodeUpright(bytes: Uint8Array): Promise<{ data: Buffer; info: OutputInfo }> {
  const input = { limitInputPixels: MAX_INPUT_PIXELS, failOn: "warning" } as const;
  try {
    return await sharp(bytes, input)
      .rotate()
      .toColourspace("srgb")
      .raw()
      .toBuffer({ resolveWithObject: true });
  } catch (error) {
    if (/pixel limit/i.test((error as Error).message)) throw tooManyPixels();
    throw unreadable();
  }
}

/** `targets` (widths no wider than the pixels) encoded in every format, widest first. */
async function encodeWidths(
  pixels: { data: Buffer; info: OutputInfo },
  targets: readonly number[],
): Promise<ProcessedImage["widths"]> {
  const raw = ({ data, info }: { data: Buffer; info: OutputInfo }) =>
    sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
  const widths: ProcessedImage["widths"] = [];
  for (const target of [...targets].sort((a, b) => b - a)) {
    // Resized once for both formats: a resize of a camera photo costs as much as a small width's encode.
    const resized =
      target === pixels.info.width
        ? pixels
        : await raw(pixels).resize({ width: target }).raw().toBuffer({ resolveWithObject: true });
    for (const format of IMAGE_FORMATS) {
      widths.push({
        width: target,
        format,
        data: await encodeWidth(raw(resized), format, target).toBuffer(),
      });
    }
  }
  return widths;
}

/**
 * Decodes a raster image once (header checked first), turns it upright,
 * drops every piece of metadata (sharp writes none unless asked; colour is
 * converted to sRGB and the profile dropped) and encodes the original again
 * plus each width in each format. Alpha is kept. An animated GIF stays
 * animated as the original; its widths are stills of the first frame.
 * Runs in the caller's turn of the queue.
 */
export async function processRaster(bytes: Uint8Array, extension: RasterExtension): Promise<ProcessedImage> {
  const { animated } = await checkImageHeader(bytes);
  const pixels = await decodeUpright(bytes);
  const { width, height, channels } = pixels.info;
  const original =
    animated && extension === "gif"
      ? await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: "warning", animated: true })
          .gif()
          .toBuffer()
      : await encodeAs(sharp(pixels.data, { raw: { width, height, channels } }), extension).toBuffer();
  return { original, width, height, widths: await encodeWidths(pixels, widthsFor(width)) };
}

/** The pixel size a BMP header declares (kept as it is: libvips cannot decode BMP, and BMP carries no EXIF). */
export function bmpSize(bytes: Uint8Array): { width: number; height: number } | null {
  if (bytes.length < 26) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const core = view.getUint32(14, true) === 12;
  const width = core ? view.getUint16(18, true) : Math.abs(view.getInt32(18, true));
  const height = core ? view.getUint16(20, true) : Math.abs(view.getInt32(22, true));
  return width > 0 && height > 0 ? { width, height } : null;
}

/** An SVG's size as librsvg reads it from the (already sanitised) markup, when it declares one. */
async function svgSize(bytes: Uint8Array): Promise<{ width: number; height: number } | null> {
  try {
    const { width, height } = await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
    return width && height ? { width, height } : null;
  } catch {
    return null;
  }
}

/**
 * What to store for an upload of a detected type, in a turn of the queue for
 * the rasters. SVG (sanitised before) and BMP are kept as they are, with no
 * widths.
 */
export async function processUpload(
  bytes: Uint8Array,
  extension: string,
  options: { mayWait?: boolean } = {},
): Promise<ProcessedImage> {
  if (isProcessedRaster(extension)) {
    // Refused before taking a turn: a bomb or a non-image never waits for the queue.
    await checkImageHeader(bytes);
    return getImageQueue().run(() => processRaster(bytes, extension), options);
  }
  const size = extension === "bmp" ? bmpSize(bytes) : extension === "svg" ? await svgSize(bytes) : null;
  return { original: bytes, width: size?.width ?? null, height: size?.height ?? null, widths: [] };
}

/** Stores the widths of an upload already stored at `key`, then records it as processed. */
export async function storeWidthsAndRecord(
  storage: FileStorage,
  key: string,
  processed: ProcessedImage,
): Promise<void> {
  for (const { width, format, data } of processed.widths) {
    await storage.write(widthKeyOf(key, width, format), { data, contentType: `image/${format}` });
  }
  const widths = [...new Set(processed.widths.map((entry) => entry.width))].sort((a, b) => a - b);
  await recordImage({ key, width: processed.width, height: processed.height, widths });
}

async function recordImage(row: {
  key: string;
  width: number | null;
  height: number | null;
  widths: number[];
}): Promise<void> {
  await getDb().sequelize.query(
    `INSERT INTO uploaded_images (key, width, height, content_type, widths, processed_at)
     VALUES (:key, :width, :height, :contentType, CAST(:widths AS integer[]), now())
     ON CONFLICT (key) DO NOTHING`,
    {
      replacements: {
        key: row.key,
        width: row.width,
        height: row.height,
        contentType: contentTypeOfKey(row.key),
        widths: `{${row.widths.join(",")}}`,
      },
    },
  );
}

/* ------------------------------------------------------------ look-ups */

interface ImageRow {
  key: string;
  width: number | null;
  height: number | null;
  content_type: string;
  widths: number[];
  processed_at: Date;
}

const toInfo = (row: ImageRow): ImageInfo => ({
  key: row.key,
  width: row.width,
  height: row.height,
  contentType: row.content_type,
  widths: [...row.widths].sort((a, b) => a - b),
  processedAt: row.processed_at,
});

/**
 * Found rows are kept (a bounded number) so `?w=` costs no query. A row changes only when the backfill adds
 * widths the list gained; a process that cached it before keeps choosing among the widths it knew, which
 * all still exist.
 */
const infoCache = new Map<string, ImageInfo>();
const INFO_CACHE_SIZE = 2_000;

export async function imageInfoByKey(key: string): Promise<ImageInfo | null> {
  const cached = infoCache.get(key);
  if (cached) return cached;
  const [row] = await getDb().sequelize.query<ImageRow>(
    `SELECT key, width, height, content_type, widths, processed_at FROM uploaded_images WHERE key = :key`,
    { replacements: { key }, type: QueryTypes.SELECT },
  );
  if (!row) return null;
  const info = toInfo(row);
  if (infoCache.size >= INFO_CACHE_SIZE) infoCache.delete(infoCache.keys().next().value!);
  infoCache.set(key, info);
  return info;
}

/** The upload a width's key belongs to, from its UUID alone (the width's key does not say the original's extension). */
export async function imageInfoOfUuid(uuid: string): Promise<ImageInfo | null> {
  const keys = ["jpg", "png", "gif", "webp"].map((extension) => `${uuid}.${extension}`);
  for (const key of keys) {
    const cached = infoCache.get(key);
    if (cached) return cached;
  }
  const [row] = await getDb().sequelize.query<ImageRow>(
    `SELECT key, width, height, content_type, widths, processed_at FROM uploaded_images WHERE key IN (:keys)`,
    { replacements: { keys }, type: QueryTypes.SELECT },
  );
  return row ? toInfo(row) : null;
}

/** What the pipeline knows of an image URL (an upload of this shop), or null (not an upload, not processed yet). */
export async function imageInfo(url: string): Promise<ImageInfo | null> {
  return (await imageInfos([url])).get(url) ?? null;
}

/** imageInfo for many URLs in one query; every URL asked is a key of the answer. */
export async function imageInfos(urls: readonly string[]): Promise<Map<string, ImageInfo | null>> {
  const storage = getStorage();
  const keys = new Map<string, string>();
  for (const url of urls) {
    const key = storage.keyOf(url);
    if (key && isOriginalKey(key)) keys.set(url, key);
  }
  const rows = keys.size
    ? await getDb().sequelize.query<ImageRow>(
        `SELECT key, width, height, content_type, widths, processed_at FROM uploaded_images WHERE key IN (:keys)`,
        { replacements: { keys: [...new Set(keys.values())] }, type: QueryTypes.SELECT },
      )
    : [];
  const byKey = new Map(rows.map((row) => [row.key, toInfo(row)]));
  return new Map(urls.map((url) => [url, byKey.get(keys.get(url) ?? "") ?? null]));
}

/** Removes the widths stored for an upload and its row (the upload itself is the caller's). */
export async function deleteImageWidths(storage: FileStorage, key: string): Promise<void> {
  const info = await imageInfoByKey(key);
  if (!info) return;
  for (const width of info.widths) {
    for (const format of IMAGE_FORMATS) await storage.delete(widthKeyOf(key, width, format));
  }
  await getDb().sequelize.query(`DELETE FROM uploaded_images WHERE key = :key`, { replacements: { key } });
  infoCache.delete(key);
}

/* ------------------------------------------------------------ backfill */

export interface BackfillReport {
  /** Uploads recorded by this run (the unreadable ones included). */
  processed: number;
  /** Uploads recorded before that got the widths the list has gained since (IMAGE_WIDTHS). */
  extended: number;
  /** References that are not uploads of this shop, or were recorded before with every width. */
  skipped: number;
  missing: number;
  unreadable: number;
}

/**
 * The widths of the list that an upload recorded before the list changed does not have: none for an SVG, a BMP
 * or an unreadable file (they have no widths at all), nor for one that has them all.
 */
export function missingWidths(row: { width: number | null; widths: readonly number[] }): number[] {
  if (!row.width || !row.widths.length) return [];
  return widthsFor(row.width).filter((width) => !row.widths.includes(width));
}

/**
 * Stores the `missing` widths of an upload recorded before, from its stored (already upright and stripped)
 * original, then adds them to its row. The files come before the row, as on upload: a run stopped between the
 * two stores them again next time, and a page never lists a width whose row says it is there but is not.
 */
async function addMissingWidths(
  storage: FileStorage,
  key: string,
  missing: readonly number[],
): Promise<"extended" | "missing" | "unreadable"> {
  const file = await storage.read(key);
  if (!file) return "missing";
  let widths: ProcessedImage["widths"];
  try {
    widths = await getImageQueue().run(async () => encodeWidths(await decodeUpright(file.data), missing), {
      mayWait: true,
    });
  } catch (error) {
    if (!(error instanceof AppError) || error.status >= 500) throw error;
    // It decoded once; kept as it is, with the widths it has. The next run tries again.
    getLogger().warn({ key, reason: error.message }, "An upload's new widths could not be made");
    return "unreadable";
  }
  for (const { width, format, data } of widths) {
    await storage.write(widthKeyOf(key, width, format), { data, contentType: `image/${format}` });
  }
  await getDb().sequelize.query(
    `UPDATE uploaded_images
        SET widths = ARRAY(SELECT DISTINCT w FROM unnest(widths || CAST(:widths AS integer[])) AS w ORDER BY w)
      WHERE key = :key`,
    { replacements: { key, widths: `{${missing.join(",")}}` } },
  );
  infoCache.delete(key);
  return "extended";
}

/**
 * Processes every upload the database refers to that has no row yet: widths
 * stored, the original replaced by its metadata-free form at the same key,
 * then the row. An upload recorded before the width list gained a width gets
 * that width, made from its stored original, and its row lists it. Stopped
 * half-way, the next run starts with what is not done; a finished image is
 * never done twice. URLs of other sites and /images are skipped.
 */
export async function backfillImages(log: (message: string) => void = () => {}): Promise<BackfillReport> {
  const storage = getStorage();
  const report: BackfillReport = { processed: 0, extended: 0, skipped: 0, missing: 0, unreadable: 0 };
  const references = await getDb().sequelize.query<{ image: string }>(
    `SELECT image FROM products UNION SELECT url FROM product_images
     UNION SELECT image FROM feature_images UNION SELECT image FROM order_items`,
    { type: QueryTypes.SELECT },
  );
  const keys = [
    ...new Set(references.map((row) => storage.keyOf(row.image)).filter((key) => key && isOriginalKey(key))),
  ] as string[];
  const recorded = new Map(
    (keys.length
      ? await getDb().sequelize.query<{ key: string; width: number | null; widths: number[] }>(
          `SELECT key, width, widths FROM uploaded_images WHERE key IN (:keys)`,
          { replacements: { keys }, type: QueryTypes.SELECT },
        )
      : []
    ).map((row) => [row.key, missingWidths(row)]),
  );
  report.skipped = references.length - keys.length;
  for (const [key, missing] of recorded) {
    if (!missing.length) {
      report.skipped += 1;
      continue;
    }
    const outcome = await addMissingWidths(storage, key, missing);
    report[outcome] += 1;
    if (outcome === "extended") log(`images: ${key} gained widths ${missing.join(", ")}`);
  }
  for (const key of keys.filter((candidate) => !recorded.has(candidate))) {
    const file = await storage.read(key);
    if (!file) {
      report.missing += 1;
      continue;
    }
    const extension = key.slice(key.lastIndexOf(".") + 1);
    let processed: ProcessedImage;
    try {
      processed = await processUpload(file.data, extension, { mayWait: true });
    } catch (error) {
      if (!(error instanceof AppError) || error.status >= 500) throw error;
      // Kept as it is and recorded, so that the next run does not try again.
      getLogger().warn({ key, reason: error.message }, "An upload could not be processed");
      processed = { original: file.data, width: null, height: null, widths: [] };
      report.unreadable += 1;
    }
    if (processed.original !== file.data) {
      await storage.write(key, { data: processed.original, contentType: contentTypeOfKey(key) });
    }
    await storeWidthsAndRecord(storage, key, processed);
    report.processed += 1;
    log(`images: ${key} done (${processed.widths.length} files)`);
  }
  return report;
}

/**
 * Lines (order lines) with their image's own size, `imageWidth`/`imageHeight` (null when the image is
 * not a processed upload), for pages whose lines come from a Sequelize read rather than SQL that can join
 * `uploaded_images` itself (uploadedImageJoinSql): one query for all of them.
 */
export async function withImageSizes<T extends { image: string }>(
  lines: readonly T[],
): Promise<(T & { imageWidth: number | null; imageHeight: number | null })[]> {
  const infos = await imageInfos(lines.map((line) => line.image));
  return lines.map((line) => {
    const info = infos.get(line.image);
    return { ...line, imageWidth: info?.width ?? null, imageHeight: info?.height ?? null };
  });
}
