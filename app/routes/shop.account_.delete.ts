import { redirect, type ActionFunctionArgs } from "react-router";
import { readForm } from "~/lib/server/request-body.server";
import { PRIVACY_SETTINGS_URL } from "~/lib/shared/privacy";
import { deleteOwnAccount, PRIVACY_TEXT } from "~/services/privacy/privacy.server";
import { requireShopper } from "~/web/auth.server";
import { runOrRefuse } from "~/web/form-action.server";
import { destroyUserSession, redirectWithFlash } from "~/web/session.server";

/**
 * "Delete my account", the form of the account page's privacy section: the rules of
 * `POST /api/account/delete`. Deleted: signed out, to the home page with a message; refused (a wrong
 * password or code, orders in progress): back to the settings with the reason.
 */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireShopper(request);
  const form = await readForm(request);
  return runOrRefuse(
    async () => {
      await deleteOwnAccount(user.id, {
        password: form.get("password") ?? "",
        code: form.get("code") ?? undefined,
      });
      const headers = new Headers({ "Set-Cookie": await destroyUserSession(request) });
      return redirectWithFlash(request, "/", { type: "success", message: PRIVACY_TEXT.deleted }, { headers });
    },
    (error) => redirectWithFlash(request, PRIVACY_SETTINGS_URL, { type: "error", message: error.message }),
  );
}

/** The form's URL opened by hand: the settings, where the form is. */
export function loader() {
  return redirect(PRIVACY_SETTINGS_URL);
}
