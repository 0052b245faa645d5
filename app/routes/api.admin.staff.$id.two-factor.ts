import { apiJson, apiRoute } from "~/web/api.server";
import { auditByOf } from "~/web/audit.server";
import { requireApiAdmin } from "~/web/auth.server";
import { resetTwoFactor } from "~/services/two-factor.server";
import { TWO_FACTOR_TEXT } from "~/lib/shared/two-factor";

/** DELETE: resets another person's two-factor sign-in (a lost phone); on the audit log. */
const route = apiRoute({
  DELETE: async ({ request, params, context }) => {
    const user = await requireApiAdmin(request);
    await resetTwoFactor(params.id ?? "", auditByOf(user, context));
    return apiJson({ success: true, message: TWO_FACTOR_TEXT.reset });
  },
});
export const loader = route.loader;
export const action = route.action;
