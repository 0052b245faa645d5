import { z } from "zod";
import { codeBody } from "~/web/openapi/answers.server";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";
import { auditByOf } from "~/web/audit.server";

import { confirmEnrolment } from "~/services/two-factor.server";
import { TWO_FACTOR_TEXT, BACKUP_CODE_COUNT } from "~/lib/shared/two-factor";

/** POST `{ code }`: turns two-factor sign-in on; answers the ten backup codes, the only time they are shown. */
const route = apiRoute({
  POST: apiOperation({
    tag: "Account",
    summary: `Turn two-factor sign-in on with a first code; answers ${BACKUP_CODE_COUNT} single-use backup codes, shown once`,
    access: "signed-in",
    body: codeBody,
    success: {
      200: {
        description: "It is on",
        schema: z.object({
          success: z.literal(true),
          message: z.string(),
          backupCodes: z.array(z.string()).length(BACKUP_CODE_COUNT),
        }),
      },
    },
    errors: {
      400: "No code, or a wrong code (`errors.code`)",
      409: "Not started (POST /api/account/two-factor first), or already on",
      429: "Too many wrong codes for this account: Retry-After",
    },
    handler: async ({ context, caller, input }) => {
      const user = caller;
      const body = input;
      const { backupCodes } = await confirmEnrolment(user, body.code, auditByOf(user, context));
      return apiJson({ success: true, message: TWO_FACTOR_TEXT.enabled, backupCodes });
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
