import { apiJson, apiRoute, readJsonObject } from "~/web/api.server";
import { badRequest } from "~/lib/server/errors.server";
import { TWO_FACTOR_TEXT } from "~/lib/shared/two-factor";
import { completeSignIn, SIGNED_IN_MESSAGE } from "~/web/two-factor-login.server";

/**
 * POST `{ code }` with the challenge cookie that login set: a current TOTP code or an unused
 * backup code completes the sign-in with login's own answer and session cookie.
 */
const route = apiRoute({
  POST: async ({ request }) => {
    const body = await readJsonObject(request);
    if (typeof body.code !== "string" || body.code.trim() === "") {
      throw badRequest(TWO_FACTOR_TEXT.codeRequired, { code: [TWO_FACTOR_TEXT.codeRequired] });
    }
    const { user, setCookies } = await completeSignIn(request, body.code);
    const headers = new Headers();
    for (const value of setCookies) headers.append("Set-Cookie", value);
    return apiJson({ success: true, message: SIGNED_IN_MESSAGE, user }, { headers });
  },
});
export const loader = route.loader;
export const action = route.action;
