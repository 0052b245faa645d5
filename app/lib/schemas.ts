import { z } from "zod";

/**
 * Form and API schemas shared by the browser (conform's inline errors) and the
 * server (which always validates again).
 */

export const emailField = z
  .string({ message: "Email is required" })
  .trim()
  .min(1, "Email is required")
  .max(254, "Email must be at most 254 characters")
  .pipe(z.email({ message: "Enter a valid email address" }))
  .transform((value) => value.toLowerCase());

export const registerSchema = z.object({
  userName: z
    .string({ message: "User name is required" })
    .trim()
    .min(1, "User name is required")
    .max(50, "User name must be at most 50 characters"),
  email: emailField,
  password: z
    .string({ message: "Password is required" })
    .min(8, "Password must be at least 8 characters")
    .max(200, "Password must be at most 200 characters"),
});
export type RegisterInput = z.infer<typeof registerSchema>;

export const loginSchema = z.object({
  email: emailField,
  password: z.string({ message: "Password is required" }).min(1, "Password is required").max(200),
});
export type LoginInput = z.infer<typeof loginSchema>;

/** Turns zod issues into the API's `errors`: field name to list of messages. */
export function fieldErrorsOf(error: z.ZodError): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.join(".") : "form";
    (errors[key] ??= []).push(issue.message);
  }
  return errors;
}
