import { exportFileName, type DataExport } from "~/services/privacy/privacy.server";

/**
 * The person's data as the download the contract names (API.md, "Privacy: export and erasure"): a JSON
 * attachment, never cached. The API route and the account page's link answer with it.
 */
export function dataExportResponse(file: DataExport): Response {
  return new Response(JSON.stringify(file, null, 2), {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="${exportFileName(file)}"`,
      "Cache-Control": "private, no-store",
    },
  });
}
