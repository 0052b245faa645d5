import { apiJson, apiRoute, readJsonObject } from "~/web/api.server";
import { auditByOf } from "~/web/audit.server";
import { requireApiUser } from "~/web/auth.server";
import { confirmEnrolment } from "~/services/two-factor.server";
import { TWO_FACTOR_TEXT } from "~/lib/shared/two-factor";

/** POST `{ code }`: turns two-factor sign-in on; answers the ten backup codes, the only time they are shown. */
const route = apiRoute({
  POST: async ({ request, context }) => {
    const user = await requireApiUser(request);
    const body = await readJsonObject(request);
    const { backupCodes } = await confirmEnrolment(user, body.code, auditByOf(user, context));
    return apiJson({ success: true, message: TWO_FACTOR_TEXT.enabled, backupCodes });
  },
});
export const loader = route.loader;
export const action = route.action;
