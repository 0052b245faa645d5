import { apiJson, apiRoute } from "~/web/api.server";
import { requireApiArea } from "~/web/auth.server";
import { auditByOf } from "~/web/audit.server";
import { badRequest } from "~/lib/server/errors.server";
import { MAX_IMPORT_BYTES } from "~/lib/shared/catalogue-csv";
import {
  CHOOSE_CSV_MESSAGE,
  FILE_TOO_LARGE_MESSAGE,
  isImportRefused,
  reportedErrors,
} from "~/services/catalogue-import-file.server";
import { importCatalogue } from "~/services/catalogue-import.server";
import { readMultipartForm, UPLOAD_FIELD } from "~/web/uploads.server";
import { IMPORT_BODY_LIMIT_BYTES } from "~/lib/server/body-limits.server";

// POST multipart with the CSV file in my_file → 200 { success, message, created, updated }, or 422 { errors: [{ row, column, message }] }.
const route = apiRoute(
  {
    POST: async ({ request, context }) => {
      const by = auditByOf(await requireApiArea(request, "products"), context);
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
  },
  // This module takes files: larger bodies than the 1 MB of other routes.
  { bodyLimit: IMPORT_BODY_LIMIT_BYTES },
);
export const loader = route.loader;
export const action = route.action;
