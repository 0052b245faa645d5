import { apiJson, apiRoute } from "~/web/api.server";
import { auditByOf } from "~/web/audit.server";
import { requireApiArea } from "~/web/auth.server";
import { resetStaffTwoFactor } from "~/services/staff.server";
import { TWO_FACTOR_TEXT } from "~/lib/shared/two-factor";

/** DELETE: resets another person's two-factor sign-in (a lost phone); needs `staff`; on the audit log. */
const route = apiRoute({
  DELETE: async ({ request, params, context }) => {
    const user = await requireApiArea(request, "staff");
    await resetStaffTwoFactor(user, params.id ?? "", auditByOf(user, context));
    return apiJson({ success: true, message: TWO_FACTOR_TEXT.reset });
  },
});
export const loader = route.loader;
export const action = route.action;
