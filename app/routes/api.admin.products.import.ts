import { apiJson, apiRoute } from "~/web/api.server";
import { requireApiAdmin } from "~/web/auth.server";
import { auditByOf } from "~/web/audit.server";
import { badRequest } from "~/lib/server/errors.server";
import { MAX_IMPORT_BYTES } from "~/lib/shared/catalogue-csv";
import {
  CHOOSE_CSV_MESSAGE,
  FILE_TOO_LARGE_MESSAGE,
  importCatalogue,
  isImportRefused,
  reportedErrors,
} from "~/services/catalogue-csv.server";
import { readMultipartForm, UPLOAD_FIELD } from "~/web/uploads.server";

// POST multipart with the CSV file in my_file → 200 { success, message, created, updated }, or 422 { errors: [{ row, column, message }] }.
export const { loader, action } = apiRoute({
  POST: async ({ request, context }) => {
    const by = auditByOf(await requireApiAdmin(request), context);
    const { file } = await readMultipartForm(request, {
      maxBytes: MAX_IMPORT_BYTES,
      message: FILE_TOO_LARGE_MESSAGE,
    });
    if (!file) throw badRequest(CHOOSE_CSV_MESSAGE, { [UPLOAD_FIELD]: [CHOOSE_CSV_MESSAGE] });
    try {
      const summary = await importCatalogue(file.bytes, by);
      return apiJson({ success: true, message: "Catalogue imported", ...summary });
    } catch (error) {
      if (!isImportRefused(error)) throw error;
      return apiJson(
        { success: false, message: error.message, errors: reportedErrors(error.rowErrors) },
        { status: 422 },
      );
    }
  },
});
