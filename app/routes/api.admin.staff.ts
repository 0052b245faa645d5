import { inviteStaffSchema } from "~/lib/shared/staff-schemas";

import { z } from "zod";
import { dataEnvelope } from "~/web/openapi/schemas.server";
import { staffMemberSchema } from "~/web/openapi/answers.server";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";

import { auditByOf } from "~/web/audit.server";
import { inviteStaff, listStaff, STAFF_TEXT } from "~/services/staff.server";

// GET → the back office's people; POST → 201 an invited staff member (the mail goes through the outbox).
const route = apiRoute({
  GET: apiOperation({
    tag: "Staff and API keys",
    summary: "The back office's people: admins, then staff",
    access: "staff",
    success: { 200: { description: "The people", schema: dataEnvelope(z.array(staffMemberSchema)) } },
    errors: {},
    handler: async () => {
      return apiJson({ success: true, data: await listStaff() });
    },
  }),
  POST: apiOperation({
    tag: "Staff and API keys",
    summary: "Invite a staff member: a mail with a link to choose a password, valid 72 hours",
    access: "staff",
    body: inviteStaffSchema,
    success: { 201: { description: "Invited", schema: dataEnvelope(staffMemberSchema) } },
    errors: {
      400: "Invalid fields (`errors` names them) or malformed JSON",
      403: "A permission the caller does not hold, or the caller lacks `staff`",
      409: "An account with this email already exists",
    },
    handler: async ({ context, caller, input }) => {
      const actor = caller;
      const member = await inviteStaff(actor, input, auditByOf(actor, context));
      return apiJson({ success: true, message: STAFF_TEXT.invited, data: member }, { status: 201 });
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
