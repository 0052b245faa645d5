import { messageEnvelope } from "~/web/openapi/schemas.server";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";
import { auditByOf } from "~/web/audit.server";

import { resetStaffTwoFactor } from "~/services/staff.server";
import { TWO_FACTOR_TEXT } from "~/lib/shared/two-factor";

/** DELETE: resets another person's two-factor sign-in (a lost phone); needs `staff`; on the audit log. */
const route = apiRoute({
  DELETE: apiOperation({
    tag: "Staff",
    summary: "Reset another person's two-factor sign-in (a lost phone); on the audit log",
    access: "staff",
    success: { 200: { description: "It is off for that person", schema: messageEnvelope } },
    errors: {
      403: "Not allowed, one's own (turn it off with a code instead), or an admin's reset by a staff member",
      404: "Nobody of the back office has this id (a shopper's two-factor sign-in is theirs alone)",
      409: "Two-factor sign-in is not on for that person",
    },
    handler: async ({ params, context, caller }) => {
      const user = caller;
      await resetStaffTwoFactor(user, params.id ?? "", auditByOf(user, context));
      return apiJson({ success: true, message: TWO_FACTOR_TEXT.reset });
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
