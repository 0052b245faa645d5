import { z } from "zod";
import {
  changePasswordSchema,
  changeUserNameSchema,
  forgotPasswordSchema,
  newPasswordField,
} from "../shared/account-schemas";

/**
 * Request bodies of the account calls of the JSON API (README "Accounts").
 * The OpenAPI document is generated from these.
 */

/** POST /api/auth/forgot-password */
export const forgotPasswordRequestSchema = forgotPasswordSchema;

/** POST /api/auth/reset-password: the token from the mailed link and the new password. */
export const resetPasswordRequestSchema = z.object({
  token: z
    .string({ message: "token is required: the token of the reset link" })
    .trim()
    .min(1, "token is required: the token of the reset link")
    .max(200, "token is too long"),
  password: newPasswordField,
});

/** POST /api/account/user-name */
export const changeUserNameRequestSchema = changeUserNameSchema;

/** POST /api/account/password */
export const changePasswordRequestSchema = changePasswordSchema;
