import { pagingQuerySchema } from "~/lib/server/paging.server";
import { dateTime } from "~/web/openapi/answers.server";
import { z } from "zod";
import { dataEnvelope, uuid } from "~/web/openapi/schemas.server";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";

import {
  listAudit,
  parseAuditQuery,
  AUDIT_ACTIONS,
  AUDIT_ENTITIES,
  AUDIT_PAGING,
  auditQuerySchema,
} from "~/services/audit.server";

const auditEntrySchema = z
  .object({
    _id: uuid,
    at: dateTime,
    actor: z
      .object({ id: uuid.nullable(), userName: z.string() })
      .meta({ description: 'Who made the change; id null for a script ("script") or the shop ("system")' }),
    action: z.enum(AUDIT_ACTIONS),
    entity: z.enum(AUDIT_ENTITIES),
    entityId: uuid,
    changes: z.record(z.string(), z.tuple([z.unknown(), z.unknown()])).meta({
      description:
        'Each changed field: [before, after] (null before when created, null after when deleted); a variant\'s fields are "variant <SKU> <field>"',
    }),
    ip: z.string().nullable().meta({ description: "The client's address; null for scripts" }),
  })
  .meta({ id: "AuditEntry" });

const auditQueryOpenApiSchema = pagingQuerySchema(AUDIT_PAGING).extend(auditQuerySchema.shape);

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
      const { entries, pagination } = await listAudit(parseAuditQuery(new URL(request.url).searchParams));
      return apiJson({ success: true, data: entries, pagination });
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
