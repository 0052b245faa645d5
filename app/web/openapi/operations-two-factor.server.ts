import { z } from "zod";
import {
  BACKUP_CODE_COUNT,
  CHALLENGE_MAX_ATTEMPTS,
  CHALLENGE_MINUTES,
  CODE_MAX_LENGTH,
  startTwoFactorSchema,
} from "~/lib/shared/two-factor";
import type { ApiOperation } from "./operation.server";
import { messageEnvelope, sessionUserSchema } from "./schemas.server";

/** Two-factor sign-in (API.md, "Staff, two-factor sign-in, API keys"): enrolment, the code step, a reset. */

const NOT_JSON = "The body is not JSON";

const codeBody = z.object({
  code: z.string().min(1).max(CODE_MAX_LENGTH).meta({
    description: "The 6-digit code of the authenticator app, or an unused backup code (dashes optional)",
  }),
});

/** Login's 401 when the password was right and a code is awaited (other 401s are the Error shape). */
export const twoFactorChallengeSchema = z
  .object({
    success: z.literal(false),
    twoFactorRequired: z
      .literal(true)
      .optional()
      .meta({
        description: `Present when the password was right: a challenge cookie is set (${CHALLENGE_MINUTES} minutes); send the code to POST /api/auth/two-factor`,
      }),
    message: z.string(),
    errors: z.record(z.string(), z.array(z.string())).optional(),
  })
  .meta({ id: "LoginRefusal" });

export const TWO_FACTOR_OPERATIONS: ApiOperation[] = [
  {
    method: "post",
    path: "/api/account/two-factor",
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
      415: NOT_JSON,
      429: "Too many wrong passwords for this account: Retry-After",
    },
  },
  {
    method: "delete",
    path: "/api/account/two-factor",
    tag: "Account",
    summary: "Turn two-factor sign-in off with a current code or a backup code",
    access: "signed-in",
    body: codeBody,
    success: { 200: { description: "It is off", schema: messageEnvelope } },
    errors: {
      400: "No code, or a wrong or already used code (`errors.code`)",
      409: "Two-factor sign-in is off",
      415: NOT_JSON,
      429: "Too many wrong codes for this account: Retry-After",
    },
  },
  {
    method: "post",
    path: "/api/account/two-factor/confirm",
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
      415: NOT_JSON,
      429: "Too many wrong codes for this account: Retry-After",
    },
  },
  {
    method: "post",
    path: "/api/account/two-factor/backup-codes",
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
      415: NOT_JSON,
      429: "Too many wrong codes for this account: Retry-After",
    },
  },
  {
    method: "post",
    path: "/api/auth/two-factor",
    tag: "Auth",
    summary: "Finish signing in with a code: login's answer and session cookie",
    description:
      "Needs the challenge cookie that `POST /api/auth/login` set. A TOTP code is accepted once; " +
      `${CHALLENGE_MAX_ATTEMPTS} wrong codes end the challenge (429 until a new login).`,
    access: "public",
    body: codeBody,
    success: {
      200: {
        description: "Signed in; Set-Cookie carries the session",
        schema: z.object({ success: z.literal(true), message: z.string(), user: sessionUserSchema }),
      },
    },
    errors: {
      400: "No code",
      401: "A wrong or already used code, or no, an expired or a completed challenge",
      415: NOT_JSON,
      429: "The challenge's wrong codes are spent (sign in again), or the account's",
    },
  },
  {
    method: "delete",
    path: "/api/admin/staff/{id}/two-factor",
    tag: "Staff",
    summary: "Reset another person's two-factor sign-in (a lost phone); on the audit log",
    access: "admin",
    success: { 200: { description: "It is off for that person", schema: messageEnvelope } },
    errors: {
      403: "Not allowed, one's own (turn it off with a code instead), or an admin's reset by a staff member",
      404: "Nobody of the back office has this id (a shopper's two-factor sign-in is theirs alone)",
      409: "Two-factor sign-in is not on for that person",
    },
  },
];
