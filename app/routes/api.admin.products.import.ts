import { z } from "zod";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";

import { auditByOf } from "~/web/audit.server";
import { badRequest } from "~/lib/server/errors.server";
import { MAX_IMPORT_BYTES, REQUIRED_COLUMNS, MAX_IMPORT_ROWS } from "~/lib/shared/catalogue-csv";
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
    POST: apiOperation({
      tag: "Admin",
      summary: "Import a catalogue CSV file (field my_file): all rows or none",
      description:
        "The export's format, the columns in any order; " +
        `${REQUIRED_COLUMNS.join(", ")} are required, an absent optional column is an empty cell on every row. ` +
        "Rows with a `productId` are that product's variants; rows without one are new products, grouped by " +
        "title and brand. A row whose SKU one of the product's variants has updates it, any other row creates a " +
        "variant (an empty SKU is generated); variants the file leaves out are kept. Every row is judged by the " +
        "product form's rules; the rows of one product must agree on its own fields. " +
        `At most ${MAX_IMPORT_BYTES / 1024 / 1024} MB and ${MAX_IMPORT_ROWS} rows.`,
      access: "products",
      multipart: true,
      body: z.object({
        my_file: z.string().meta({ format: "binary", description: "The CSV file (UTF-8)" }),
      }),
      success: {
        200: {
          description: "Imported: `created` and `updated` count variants",
          schema: z.object({
            success: z.literal(true),
            message: z.string(),
            created: z.number().int().meta({ description: "Variants created (on new or existing products)" }),
            updated: z.number().int().meta({ description: "Existing variants matched by SKU and written" }),
          }),
        },
      },
      errors: {
        400: "No file, or not UTF-8 text",
        409: "A SKU was taken by another admin meanwhile: import again",
        413: "Larger than 10 MB",
        422: "Refused rows, columns or file: nothing was imported",
      },
      refusals: {
        statuses: [422],
        schema: z.object({
          success: z.literal(false),
          message: z.string(),
          errors: z.array(
            z.object({
              row: z.number().int().meta({ description: "As a spreadsheet numbers it: the header is row 1" }),
              column: z.string().meta({ description: "The column's name; empty for the whole row or file" }),
              message: z.string(),
            }),
          ),
        }),
      },
      handler: async ({ request, context, caller }) => {
        const by = auditByOf(caller, context);
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
    }),
  },
  // This module takes files: larger bodies than the 1 MB of other routes.
  { bodyLimit: IMPORT_BODY_LIMIT_BYTES },
);
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
