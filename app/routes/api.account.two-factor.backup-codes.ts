import { apiJson, apiRoute, readJsonObject } from "~/web/api.server";
import { auditByOf } from "~/web/audit.server";
import { requireApiUser } from "~/web/auth.server";
import { regenerateBackupCodes } from "~/services/two-factor.server";
import { TWO_FACTOR_TEXT } from "~/lib/shared/two-factor";

/** POST `{ code }`: ten new backup codes (the old ones stop working), shown this once. */
const route = apiRoute({
  POST: async ({ request, context }) => {
    const user = await requireApiUser(request);
    const body = await readJsonObject(request);
    const { backupCodes } = await regenerateBackupCodes(user, body.code, auditByOf(user, context));
    return apiJson({ success: true, message: TWO_FACTOR_TEXT.newBackupCodes, backupCodes });
  },
});
export const loader = route.loader;
export const action = route.action;
