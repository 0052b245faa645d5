import { apiJson, apiRoute, readJsonObject } from "~/web/api.server";
import { auditByOf } from "~/web/audit.server";
import { requireApiUser } from "~/web/auth.server";
import { disableTwoFactor, startEnrolment } from "~/services/two-factor.server";
import { TWO_FACTOR_TEXT } from "~/lib/shared/two-factor";

/**
 * POST `{ password }` starts two-factor enrolment: `{ secret, otpauthUrl, qrSvg }` (confirm with
 * /api/account/two-factor/confirm); DELETE `{ code }` turns two-factor sign-in off.
 */
const route = apiRoute({
  POST: async ({ request }) => {
    const user = await requireApiUser(request);
    const enrolment = await startEnrolment(user, await readJsonObject(request));
    return apiJson({ success: true, message: TWO_FACTOR_TEXT.started, ...enrolment });
  },
  DELETE: async ({ request, context }) => {
    const user = await requireApiUser(request);
    const body = await readJsonObject(request);
    await disableTwoFactor(user, body.code, auditByOf(user, context));
    return apiJson({ success: true, message: TWO_FACTOR_TEXT.disabled });
  },
});
export const loader = route.loader;
export const action = route.action;
