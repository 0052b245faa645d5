import { backfillImages } from "../app/services/image-backfill.server";
import { withDatabase } from "./with-database";

await withDatabase(async () => {
  console.log("The database schema is up to date.");
  // Uploads from before the image pipeline, or from before a width was added to its list, get their widths
  // here (images:backfill does only this step).
  const report = await backfillImages(console.log);
  if (report.processed) console.log(`Images: ${report.processed} uploads processed.`);
  if (report.extended) console.log(`Images: ${report.extended} uploads given new widths.`);
});
