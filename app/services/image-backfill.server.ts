import { QueryTypes } from "sequelize";
import { getDb } from "~/models/db.server";
import { AppError } from "~/lib/server/errors.server";
import { getLogger } from "~/lib/server/logger.server";
import {
  contentTypeOfKey,
  getStorage,
  isOriginalKey,
  widthKeyOf,
  type FileStorage,
} from "~/lib/server/storage.server";
import { widthsFor } from "~/lib/shared/images";
import { getImageQueue } from "./image-queue.server";
import { decodeUpright, encodeWidths, processUpload, type ProcessedImage } from "./image-processing.server";
import { forgetImageInfo, storeWidthsAndRecord } from "./images.server";

/**
 * The backfill (npm run images:backfill, and after each migration): uploads stored before the pipeline, or
 * before the list of widths grew, get what they miss, one image at a time in the queue's turns.
 */

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
  forgetImageInfo(key);
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
