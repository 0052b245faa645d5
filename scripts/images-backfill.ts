import { backfillImages } from "../app/services/image-backfill.server";
import { withDatabase } from "./with-database";

/**
 * `npm run images:backfill`: stores the widths of uploads made before the
 * image pipeline (docs/decisions/0013-image-pipeline.md), and the widths the
 * list gained since for uploads made before that (0023). Each finished image
 * is recorded in uploaded_images, so a run stopped half-way continues where it
 * stopped and a finished run does nothing the next time.
 */
await withDatabase(async () => {
  const report = await backfillImages(console.log);
  console.log(
    `Images: ${report.processed} processed, ${report.extended} given new widths, ${report.skipped} skipped (done before, or not uploads of this shop), ` +
      `${report.missing} missing from the storage, ${report.unreadable} unreadable (kept as they are).`,
  );
});
