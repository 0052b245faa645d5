import { describe, expect, it } from "vitest";
import { forgotPasswordSchema, resetPasswordFormSchema } from "../../app/lib/shared/account-schemas";
import { parseWithSchema } from "../../app/lib/shared/form-schema";
import { loginSchema, registerSchema } from "../../app/lib/shared/schemas";

/**
 * The sign-in, registration and password forms check in the browser and on the
 * server with the same zod/mini schemas through parseWithSchema (no classic
 * zod in those pages' JavaScript, docs/decisions/0008). These hold the messages the pages
 * and the API have always given.
 */

const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return data;
};

/** The field errors of a refused submission (none when it was accepted). */
const errorsOf = (submission: { status?: string; error?: unknown }) =>
  submission.status === "error" ? submission.error : undefined;

describe("parseWithSchema: the auth forms' check", () => {
  it("an empty or blank field is missing: each field says it is required", () => {
    const submission = parseWithSchema(form({ userName: "   ", email: "", password: "" }), {
      schema: registerSchema,
    });
    expect(submission.status).toBe("error");
    expect(errorsOf(submission)).toEqual({
      userName: ["User name is required"],
      email: ["Email is required"],
      password: ["Password is required"],
    });
  });

  it("a field left out of the form is missing too", () => {
    const submission = parseWithSchema(form({}), { schema: loginSchema });
    expect(errorsOf(submission)).toEqual({
      email: ["Email is required"],
      password: ["Password is required"],
    });
  });

  it("names a malformed email, a short password and a long user name", () => {
    const submission = parseWithSchema(
      form({ userName: "x".repeat(51), email: "not-an-email", password: "short" }),
      { schema: registerSchema },
    );
    expect(errorsOf(submission)).toEqual({
      userName: ["User name must be at most 50 characters"],
      email: ["Enter a valid email address"],
      password: ["Password must be at least 8 characters"],
    });
  });

  it.each([
    ["a line break", "Sam\nSECURITY ALERT", "User name must be on one line (no line breaks)"],
    ["a carriage return", "Sam\r\nX", "User name must be on one line (no line breaks)"],
    ["a line separator", "Sam\u2028X", "User name must be on one line (no line breaks)"],
    ["a NUL", "Sam\u0000", "User name cannot contain control characters (such as NUL or tab)"],
    ["a tab", "Sam\tX", "User name cannot contain control characters (such as NUL or tab)"],
    ["a C1 control", "Sam\u009bX", "User name cannot contain control characters (such as NUL or tab)"],
    [
      "a right-to-left override",
      "Sam\u202Egnp.exe",
      "User name cannot contain text-direction characters (such as right-to-left overrides)",
    ],
    [
      "a bidirectional isolate",
      "\u2067Sam",
      "User name cannot contain text-direction characters (such as right-to-left overrides)",
    ],
  ])("refuses a user name with %s, saying which rule", (_what, userName, message) => {
    const submission = parseWithSchema(
      form({ userName, email: "ada@example.com", password: "secret-pass-1" }),
      { schema: registerSchema },
    );
    expect(errorsOf(submission)).toEqual({ userName: [message] });
  });

  it("keeps names in any script, with accents, apostrophes and inner spaces", () => {
    for (const userName of ["Zoë O'Brien", "Jean-Luc Picard", "محمد علي", "李小龍"]) {
      const submission = parseWithSchema(
        form({ userName, email: "ada@example.com", password: "secret-pass-1" }),
        { schema: registerSchema },
      );
      expect(submission.status, userName).toBe("success");
    }
  });

  it("trims the user name and the email and lowercases the email; the password stays as typed", () => {
    const submission = parseWithSchema(
      form({ userName: "  Ada  ", email: "  Ada@Example.COM ", password: " Secret pass 1 " }),
      { schema: registerSchema },
    );
    expect(submission.status).toBe("success");
    expect(submission.status === "success" && submission.value).toEqual({
      userName: "Ada",
      email: "ada@example.com",
      password: " Secret pass 1 ",
    });
  });

  it("the forgotten and reset password forms give the registration's messages", () => {
    expect(errorsOf(parseWithSchema(form({ email: "nope" }), { schema: forgotPasswordSchema }))).toEqual({
      email: ["Enter a valid email address"],
    });
    expect(
      errorsOf(parseWithSchema(form({ password: "1234567" }), { schema: resetPasswordFormSchema })),
    ).toEqual({
      password: ["Password must be at least 8 characters"],
    });
  });

  it("a reply hides the password, as the pages ask", () => {
    const submission = parseWithSchema(form({ email: "a@b.co", password: "" }), { schema: loginSchema });
    const reply = submission.reply({ hideFields: ["password"] });
    expect(reply.initialValue).toEqual({ email: "a@b.co" });
    expect(reply.error).toEqual({ password: ["Password is required"] });
  });
});
