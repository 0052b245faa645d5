import { dateTime } from "~/web/openapi/answers.server";
import { createApiKeySchema } from "~/lib/shared/staff-schemas";
import { API_KEY_PERMISSIONS } from "~/lib/shared/permissions";
import { z } from "zod";
import { dataEnvelope, uuid } from "~/web/openapi/schemas.server";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";

import { auditByOf } from "~/web/audit.server";
import { createApiKey, listApiKeys } from "~/services/api-keys.server";

const apiKeySchema = z
  .object({
    _id: uuid,
    name: z.string(),
    lastFour: z.string().meta({ description: "The secret's last four characters, to tell keys apart" }),
    permissions: z.array(z.enum(API_KEY_PERMISSIONS)),
    createdBy: z.object({ id: uuid, userName: z.string() }),
    createdAt: dateTime,
    expiresAt: dateTime.nullable(),
    lastUsedAt: dateTime.nullable().meta({ description: "Kept to the minute" }),
  })
  .meta({ id: "ApiKey" });

// GET → the keys that still work (never their secrets); POST → 201 a new key with its secret, shown this once.
const route = apiRoute({
  GET: apiOperation({
    tag: "Staff and API keys",
    summary: "The API keys that still work (never their secrets)",
    access: "staff",
    success: { 200: { description: "The keys", schema: dataEnvelope(z.array(apiKeySchema)) } },
    errors: {},
    handler: async () => {
      return apiJson({ success: true, data: await listApiKeys() });
    },
  }),
  POST: apiOperation({
    tag: "Staff and API keys",
    summary: "Make an API key: its secret is answered this once and stored only as a hash",
    access: "staff",
    body: createApiKeySchema,
    success: {
      201: {
        description: "The key and its secret",
        schema: z.object({
          success: z.literal(true),
          message: z.string(),
          data: apiKeySchema.extend({
            secret: z.string().meta({ description: "`shop_sk_…`: send as `Authorization: Bearer <secret>`" }),
          }),
        }),
      },
    },
    errors: {
      400: "Invalid fields (`errors` names them: no permission, `staff`, a past expiry) or malformed JSON",
      403: "A permission the caller does not hold",
    },
    handler: async ({ context, caller, input }) => {
      const actor = caller;
      const key = await createApiKey(actor, input, auditByOf(actor, context));
      return apiJson(
        { success: true, message: "API key created: copy the secret now, it is not shown again", data: key },
        { status: 201 },
      );
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
