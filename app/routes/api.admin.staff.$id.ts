import { dataEnvelope, messageEnvelope } from "~/web/openapi/schemas.server";
import { updateStaffSchema } from "~/lib/shared/staff-schemas";
import { staffMemberSchema } from "~/web/openapi/answers.server";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";

import { auditByOf } from "~/web/audit.server";
import { removeStaff, STAFF_TEXT, updateStaff } from "~/services/staff.server";

// PUT { permissions?, disabled? } → the member; DELETE → removed (the last admin stays: 409).
const route = apiRoute({
  PUT: apiOperation({
    tag: "Staff and API keys",
    summary: "Change a person's permissions or disable them (their sessions and keys stop at once)",
    access: "staff",
    body: updateStaffSchema,
    success: { 200: { description: "The person", schema: dataEnvelope(staffMemberSchema) } },
    errors: {
      400: "Invalid fields, or permissions for an admin (who holds every one)",
      403: "Oneself, a permission the caller does not hold (granted, taken away, or handed back by enabling), or an admin changed by a staff member",
      404: "Nobody of the back office has this id",
      409: "The shop's last admin",
    },
    handler: async ({ context, params, caller, input }) => {
      const actor = caller;
      const body = input;
      const member = await updateStaff(actor, params.id ?? "", body, auditByOf(actor, context));
      return apiJson({ success: true, message: STAFF_TEXT.updated, data: member });
    },
  }),
  DELETE: apiOperation({
    tag: "Staff and API keys",
    summary: "Remove a person from the back office (their account, sessions and keys)",
    access: "staff",
    success: { 200: { description: "Removed", schema: messageEnvelope } },
    errors: {
      403: "Oneself, or an admin removed by a staff member",
      404: "Nobody of the back office has this id",
      409: "The shop's last admin, or a person with orders (disable them instead)",
    },
    handler: async ({ context, params, caller }) => {
      const actor = caller;
      await removeStaff(actor, params.id ?? "", auditByOf(actor, context));
      return apiJson({ success: true, message: STAFF_TEXT.removed });
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
