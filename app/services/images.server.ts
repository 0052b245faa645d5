import { QueryTypes } from "sequelize";
import { getDb } from "~/models/db.server";
import {
  contentTypeOfKey,
  getStorage,
  isOriginalKey,
  widthKeyOf,
  type FileStorage,
} from "~/lib/server/storage.server";
import { IMAGE_FORMATS } from "~/lib/shared/images";
import type { ProcessedImage } from "./image-processing.server";

/**
 * The processed uploads on record (uploaded_images, docs/decisions/0013-image-pipeline.md): their widths
 * stored and recorded, and looked up by key, id or URL for the pages and for `?w=`.
 */

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

/** Forgets what is cached of the upload at `key` (its row changed). */
export function forgetImageInfo(key: string): void {
  infoCache.delete(key);
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
