import { z } from "zod";
import { codeBody } from "~/web/openapi/answers.server";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";
import { auditByOf } from "~/web/audit.server";

import { regenerateBackupCodes } from "~/services/two-factor.server";
import { TWO_FACTOR_TEXT, BACKUP_CODE_COUNT } from "~/lib/shared/two-factor";

/** POST `{ code }`: ten new backup codes (the old ones stop working), shown this once. */
const route = apiRoute({
  POST: apiOperation({
    tag: "Account",
    summary: `${BACKUP_CODE_COUNT} new backup codes with a current code or a backup code; the old ones stop working`,
    access: "signed-in",
    body: codeBody,
    success: {
      200: {
        description: "The new codes, shown this once",
        schema: z.object({
          success: z.literal(true),
          message: z.string(),
          backupCodes: z.array(z.string()).length(BACKUP_CODE_COUNT),
        }),
      },
    },
    errors: {
      400: "No code, or a wrong or already used code (`errors.code`)",
      409: "Two-factor sign-in is off",
      429: "Too many wrong codes for this account: Retry-After",
    },
    handler: async ({ context, caller, input }) => {
      const user = caller;
      const body = input;
      const { backupCodes } = await regenerateBackupCodes(user, body.code, auditByOf(user, context));
      return apiJson({ success: true, message: TWO_FACTOR_TEXT.newBackupCodes, backupCodes });
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
