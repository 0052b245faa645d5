import { csvResponse } from "~/lib/server/csv.server";
import { apiRoute } from "~/web/api.server";
import { requireApiArea } from "~/web/auth.server";
import { normalizeSearch } from "~/services/admin-catalog.server";
import { exportCatalogue } from "~/services/catalogue-export.server";

// GET ?search → text/csv, one row per variant (API.md "Back office"), the products the admin list's search matches.
const route = apiRoute({
  GET: async ({ request }) => {
    await requireApiArea(request, "products");
    const search = normalizeSearch(new URL(request.url).searchParams.get("search"));
    return csvResponse(exportCatalogue(search), "catalogue.csv");
  },
});
export const loader = route.loader;
export const action = route.action;
