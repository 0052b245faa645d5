import { messageEnvelope } from "~/web/openapi/schemas.server";
import { codeBody } from "~/web/openapi/answers.server";
import { z } from "zod";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";
import { auditByOf } from "~/web/audit.server";

import { disableTwoFactor, startEnrolment } from "~/services/two-factor.server";
import { TWO_FACTOR_TEXT } from "~/lib/shared/two-factor";
import { startTwoFactorSchema } from "~/lib/shared/account-schemas";

/**
 * POST `{ password }` starts two-factor enrolment: `{ secret, otpauthUrl, qrSvg }` (confirm with
 * /api/account/two-factor/confirm); DELETE `{ code }` turns two-factor sign-in off.
 */
const route = apiRoute({
  POST: apiOperation({
    tag: "Account",
    summary: "Start turning two-factor sign-in on: a new TOTP secret (confirm it with a first code)",
    description:
      "TOTP per RFC 6238: SHA-1, 6 digits, 30-second steps, one step of drift accepted. Calling it again " +
      "before confirming replaces the secret. Takes the current password: a session alone cannot add a device.",
    access: "signed-in",
    body: startTwoFactorSchema,
    success: {
      200: {
        description: "The secret, as base32, as an otpauth:// URL and as a QR code",
        schema: z.object({
          success: z.literal(true),
          message: z.string(),
          secret: z.string().meta({ description: "base32, for typing into the app" }),
          otpauthUrl: z.string().meta({ description: "otpauth://totp/… (Key URI format)" }),
          qrSvg: z.string().meta({ description: "The otpauth URL as a QR code: an SVG element" }),
        }),
      },
    },
    errors: {
      400: "No password, or a wrong one (`errors.password`)",
      409: "Two-factor sign-in is already on",
      429: "Too many wrong passwords for this account: Retry-After",
    },
    handler: async ({ caller, input }) => {
      const enrolment = await startEnrolment(caller, input);
      return apiJson({ success: true, message: TWO_FACTOR_TEXT.started, ...enrolment });
    },
  }),
  DELETE: apiOperation({
    tag: "Account",
    summary: "Turn two-factor sign-in off with a current code or a backup code",
    access: "signed-in",
    body: codeBody,
    success: { 200: { description: "It is off", schema: messageEnvelope } },
    errors: {
      400: "No code, or a wrong or already used code (`errors.code`)",
      409: "Two-factor sign-in is off",
      429: "Too many wrong codes for this account: Retry-After",
    },
    handler: async ({ context, caller, input }) => {
      const user = caller;
      const body = input;
      await disableTwoFactor(user, body.code, auditByOf(user, context));
      return apiJson({ success: true, message: TWO_FACTOR_TEXT.disabled });
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
