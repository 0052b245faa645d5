import { z } from "zod";
import { auditQueryOpenApiSchema, dataEnvelope, auditEntrySchema } from "~/web/openapi/schemas.server";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";
import { requireApiArea } from "~/web/auth.server";
import { listAudit, parseAuditQuery } from "~/services/audit.server";

// GET only: an entry is never changed or deleted (any other method answers 405).
const route = apiRoute({
  GET: apiOperation({
    tag: "Admin",
    summary: "The audit log: every admin change, newest first, paged (read only: no entry can change)",
    access: "audit",
    query: auditQueryOpenApiSchema,
    success: {
      200: {
        description: "A page of entries",
        schema: dataEnvelope(z.array(auditEntrySchema), { paged: true }),
      },
    },
    errors: { 400: "An unknown entity or action, a malformed entityId, date, page or limit" },
    handler: async ({ request }) => {
      await requireApiArea(request, "audit");
      const { entries, pagination } = await listAudit(parseAuditQuery(new URL(request.url).searchParams));
      return apiJson({ success: true, data: entries, pagination });
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
