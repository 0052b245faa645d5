import { sessionUserSchema } from "~/web/openapi/schemas.server";
import { z } from "zod";
import { codeBody } from "~/web/openapi/answers.server";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";
import { badRequest } from "~/lib/server/errors.server";
import { TWO_FACTOR_TEXT, CHALLENGE_MAX_ATTEMPTS } from "~/lib/shared/two-factor";
import { completeSignIn } from "~/web/two-factor-login.server";

/**
 * POST `{ code }` with the challenge cookie that login set: a current TOTP code or an unused
 * backup code completes the sign-in with login's own answer and session cookie.
 */
const route = apiRoute({
  POST: apiOperation({
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
      429: "The challenge's wrong codes are spent (sign in again), or the account's",
    },
    handler: async ({ request, input }) => {
      const body = input;
      if (typeof body.code !== "string" || body.code.trim() === "") {
        throw badRequest(TWO_FACTOR_TEXT.codeRequired, { code: [TWO_FACTOR_TEXT.codeRequired] });
      }
      const { user, setCookies, message } = await completeSignIn(request, body.code);
      const headers = new Headers();
      for (const value of setCookies) headers.append("Set-Cookie", value);
      return apiJson({ success: true, message, user }, { headers });
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
