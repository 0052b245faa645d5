import { apiJson, apiRoute } from "~/web/api.server";
import { requireApiArea } from "~/web/auth.server";
import { listAudit, parseAuditQuery } from "~/services/audit.server";

// GET only: an entry is never changed or deleted (any other method answers 405).
const route = apiRoute({
  GET: async ({ request }) => {
    await requireApiArea(request, "audit");
    const { entries, pagination } = await listAudit(parseAuditQuery(new URL(request.url).searchParams));
    return apiJson({ success: true, data: entries, pagination });
  },
});
export const loader = route.loader;
export const action = route.action;
