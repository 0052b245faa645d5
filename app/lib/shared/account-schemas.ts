import * as z from "zod/mini";
import { emailField, newPasswordField, userNameField } from "./schemas";
import { TWO_FACTOR_TEXT } from "./two-factor";

/**
 * The account forms' schemas, in `zod/mini` like ./schemas: the forgotten and
 * reset password pages check in the browser with them; the settings page
 * validates on the server only (no zod in its JavaScript, docs/decisions/0008). A new
 * password follows the registration rules, with the registration's messages.
 * The JSON API's request schemas build on these (app/lib/server/account-api.server.ts).
 */

export { newPasswordField, userNameField };

export const forgotPasswordSchema = z.object({ email: emailField });

/** The reset page's form: the token travels in a cookie (see auth.reset-password.tsx), not in the form. */
export const resetPasswordFormSchema = z.object({ password: newPasswordField });

export const changeUserNameSchema = z.object({ userName: userNameField });

export const changePasswordSchema = z.object({
  currentPassword: z
    .string({ error: "Current password is required" })
    .check(
      z.minLength(1, "Current password is required"),
      z.maxLength(200, "Password must be at most 200 characters"),
    ),
  newPassword: newPasswordField,
});

/**
 * `POST /api/account/two-factor` and the "Set up" form: the current password, so that a stolen session
 * alone cannot add the thief's device.
 */
export const startTwoFactorSchema = z.object({
  password: z
    .string({ error: TWO_FACTOR_TEXT.passwordRequired })
    .check(
      z.minLength(1, TWO_FACTOR_TEXT.passwordRequired),
      z.maxLength(200, TWO_FACTOR_TEXT.passwordRequired),
    )
    .register(z.globalRegistry, { description: "The account's current password" }),
});

export { ACCOUNT_INTENTS } from "./account-intents";
