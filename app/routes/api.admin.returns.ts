import { apiJson, apiRoute } from "~/web/api.server";
import { requireApiArea } from "~/web/auth.server";
import type { FieldErrors } from "~/lib/server/errors.server";
import { parsePaging } from "~/lib/server/paging.server";
import { RETURN_STATUSES } from "~/lib/shared/returns";
import { listReturns, parseReturnStatusFilter, RETURNS_PAGING } from "~/services/returns.server";

// GET ?status&page&limit → the returns, newest first, with pagination.
const route = apiRoute({
  GET: async ({ request }) => {
    await requireApiArea(request, "returns");
    const params = new URL(request.url).searchParams;
    const raw = params.get("status");
    const status = parseReturnStatusFilter(raw);
    const errors: FieldErrors = {};
    if (raw && !status) errors.status = [`Status must be one of: ${RETURN_STATUSES.join(", ")}`];
    // One 400 names every problem of the query, the paging's among them.
    const paging = parsePaging(params, RETURNS_PAGING, { errors });
    const { returns, pagination } = await listReturns(status, paging);
    return apiJson({ success: true, data: returns, pagination });
  },
});
export const loader = route.loader;
export const action = route.action;
