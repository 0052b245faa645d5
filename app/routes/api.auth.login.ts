import { apiJson, apiRoute, readJsonObject } from "~/web/api.server";
import { authenticateLogin } from "~/web/auth.server";
import { clientKeyOf } from "~/web/request.server";
import { continueSignIn, SIGNED_IN_MESSAGE } from "~/web/two-factor-login.server";
import { TWO_FACTOR_TEXT } from "~/lib/shared/two-factor";

const route = apiRoute({
  POST: async ({ request, context }) => {
    const body = await readJsonObject(request);
    const user = await authenticateLogin(request, clientKeyOf(context), {
      email: body.email,
      password: body.password,
    });
    const next = await continueSignIn(user);
    if (next.step === "code-needed") {
      // The password was right; the session waits for the code (POST /api/auth/two-factor).
      return apiJson(
        { success: false, twoFactorRequired: true, message: TWO_FACTOR_TEXT.challengeStarted },
        { status: 401, headers: { "Set-Cookie": next.setCookie } },
      );
    }
    return apiJson(
      { success: true, message: SIGNED_IN_MESSAGE, user: next.user },
      { headers: { "Set-Cookie": next.setCookie } },
    );
  },
});
export const loader = route.loader;
export const action = route.action;
