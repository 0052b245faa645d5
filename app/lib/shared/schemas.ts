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
// The API's document says what the pipe's second half checks (its input is only a string).
z.globalRegistry.add(emailField, { format: "email" });

/** Line breaks of every kind: CR, LF, NEL, the line and paragraph separators. */
const LINE_BREAK = /[\r\n\u0085\u2028\u2029]/;
const EVERY_LINE_BREAK = new RegExp(LINE_BREAK.source, "g");
/** C0 and C1 control characters and DEL, NUL among them. */
const CONTROL_CHARACTER = /\p{Cc}/u;
/** Bidirectional marks, embeddings, overrides and isolates: they reorder the text shown around them. */
const BIDI_CONTROL = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/**
 * A user name is printed where others read it (mails, the admin's order
 * list), and nobody confirms it: it is one line of plain text that cannot
 * break the lines around it or turn their reading order.
 */
export const userNameField = z.string({ error: "User name is required" }).check(
  z.trim(),
  z.minLength(1, "User name is required"),
  z.maxLength(50, "User name must be at most 50 characters"),
  z.refine((value) => !LINE_BREAK.test(value), "User name must be on one line (no line breaks)"),
  // Line breaks have their own message above: one message per mistake.
  z.refine(
    (value) => !CONTROL_CHARACTER.test(value.replace(EVERY_LINE_BREAK, "")),
    "User name cannot contain control characters (such as NUL or tab)",
  ),
  z.refine(
    (value) => !BIDI_CONTROL.test(value),
    "User name cannot contain text-direction characters (such as right-to-left overrides)",
  ),
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

/**
 * A field's path as a form names its input: the API's `variants.2.size` is conform's `variants[2].size`
 * (an index in brackets, a key after a dot). The one translation between the two spellings.
 */
export function formFieldName(apiPath: string): string {
  return apiPath.replace(/\.(\d+)(?=\.|$)/g, "[$1]");
}

/** The API's field errors keyed by the form's input names (formFieldName). */
export function formFieldErrors(errors: Record<string, string[]>): Record<string, string[]> {
  return Object.fromEntries(Object.entries(errors).map(([key, messages]) => [formFieldName(key), messages]));
}

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
