import { z } from "zod";
import { loginSchema } from "~/lib/shared/schemas";
import { userEnvelope } from "~/web/openapi/answers.server";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";
import { authenticateLogin } from "~/web/auth.server";
import { clientKeyOf } from "~/web/request.server";
import { continueSignIn } from "~/web/two-factor-login.server";
import { TWO_FACTOR_TEXT, CHALLENGE_MINUTES } from "~/lib/shared/two-factor";

/** Login's 401 when the password was right and a code is awaited (other 401s are the Error shape). */
const twoFactorChallengeSchema = z
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

const route = apiRoute({
  POST: apiOperation({
    tag: "Auth",
    summary: "Sign in: sets the session cookie",
    access: "public",
    body: loginSchema,
    success: { 200: { description: "Signed in; Set-Cookie carries the session", schema: userEnvelope } },
    errors: {
      400: "Malformed JSON, or invalid fields (`errors` names them)",
      401: "Wrong email or password; or, with `twoFactorRequired`, the right password of an account with two-factor sign-in",
      429: "Too many failed attempts",
    },
    refusals: { statuses: [401], schema: twoFactorChallengeSchema },
    handler: async ({ request, context, input }) => {
      const body = input;
      const user = await authenticateLogin(request, clientKeyOf(context), {
        email: body.email,
        password: body.password,
      });
      const next = await continueSignIn(request, user);
      if (next.step === "code-needed") {
        // The password was right; the session waits for the code (POST /api/auth/two-factor).
        return apiJson(
          { success: false, twoFactorRequired: true, message: TWO_FACTOR_TEXT.challengeStarted },
          { status: 401, headers: { "Set-Cookie": next.setCookie } },
        );
      }
      const headers = new Headers();
      for (const value of next.setCookies) headers.append("Set-Cookie", value);
      return apiJson({ success: true, message: next.message, user: next.user }, { headers });
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
