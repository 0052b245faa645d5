import { z } from "zod";
import { CATALOGUE_COLUMNS } from "~/lib/shared/catalogue-csv";
import { csvResponse } from "~/lib/server/csv.server";
import { apiRoute, apiOperation } from "~/web/api.server";

import { normalizeSearch } from "~/services/admin-catalog.server";
import { exportCatalogue } from "~/services/catalogue-export.server";

// GET ?search → text/csv, one row per variant (API.md "Back office"), the products the admin list's search matches.
const route = apiRoute({
  GET: apiOperation({
    tag: "Admin",
    summary: "The catalogue as a CSV file, one row per variant",
    description:
      `UTF-8 with a byte-order mark, a header row, the columns ${CATALOGUE_COLUMNS.join(", ")}. Prices in ` +
      "currency units with two decimals (an empty salePrice: not on sale); `image` is an absolute URL. A cell " +
      "that a spreadsheet would run as a formula starts with an apostrophe, which the import takes off again.",
    access: "products",
    query: z.object({
      search: z
        .string()
        .optional()
        .meta({ description: "Only the products the admin list's search matches" }),
    }),
    success: { 200: { description: "The CSV file", schema: z.string() } },
    errors: {},
    produces: "text/csv",
    handler: async ({ request }) => {
      const search = normalizeSearch(new URL(request.url).searchParams.get("search"));
      return csvResponse(exportCatalogue(search), "catalogue.csv");
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
