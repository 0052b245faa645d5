import * as z from "zod/mini";

/**
 * Form and API schemas shared by the browser (conform's inline errors on the
 * sign-in, registration and password pages) and the server (which always
 * validates again). Written with `zod/mini`, so that a page that checks in the
 * browser carries only the few kilobytes of zod its checks need, not zod's
 * whole classic API (docs/decisions/0008); the server's other schemas use classic zod and
 * build on these fields.
 */

export const emailField = z.pipe(
  z
    .string({ error: "Email is required" })
    .check(
      z.trim(),
      z.minLength(1, "Email is required"),
      z.maxLength(254, "Email must be at most 254 characters"),
    ),
  z.email({ error: "Enter a valid email address" }).check(z.toLowerCase()),
);

export const userNameField = z
  .string({ error: "User name is required" })
  .check(
    z.trim(),
    z.minLength(1, "User name is required"),
    z.maxLength(50, "User name must be at most 50 characters"),
  );

/** A new password: the registration's rules and messages. */
export const newPasswordField = z
  .string({ error: "Password is required" })
  .check(
    z.minLength(8, "Password must be at least 8 characters"),
    z.maxLength(200, "Password must be at most 200 characters"),
  );

export const registerSchema = z.object({
  userName: userNameField,
  email: emailField,
  password: newPasswordField,
});
export type RegisterInput = z.infer<typeof registerSchema>;

export const loginSchema = z.object({
  email: emailField,
  password: z
    .string({ error: "Password is required" })
    .check(z.minLength(1, "Password is required"), z.maxLength(200)),
});
export type LoginInput = z.infer<typeof loginSchema>;

/**
 * Turns zod issues into field name to list of messages: the API's `errors`, or
 * (with `formKey` "") conform's, whose form-wide errors go under "".
 */
export function fieldErrorsOf(error: z.core.$ZodError, formKey = "form"): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.join(".") : formKey;
    (errors[key] ??= []).push(issue.message);
  }
  return errors;
}
