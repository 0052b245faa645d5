import { z } from "zod";
import { emailField, registerSchema } from "./schemas";

/**
 * The account forms' schemas, on the server (the settings page validates on
 * the server only: zod stays off its JavaScript, issue 10; the auth pages
 * still check in the browser with them). A new password follows the registration rules, with the
 * registration's messages. The JSON API's request schemas build on these
 * (app/lib/account-api.server.ts).
 */

export const userNameField = registerSchema.shape.userName;
export const newPasswordField = registerSchema.shape.password;

export const forgotPasswordSchema = z.object({ email: emailField });

/** The reset page's form: the token travels in a cookie (see auth.reset-password.tsx), not in the form. */
export const resetPasswordFormSchema = z.object({ password: newPasswordField });

export const changeUserNameSchema = z.object({ userName: userNameField });

export const changePasswordSchema = z.object({
  currentPassword: z
    .string({ message: "Current password is required" })
    .min(1, "Current password is required")
    .max(200, "Password must be at most 200 characters"),
  newPassword: newPasswordField,
});

export { ACCOUNT_INTENTS } from "./account-intents";
