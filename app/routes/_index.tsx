import { type LoaderFunctionArgs, redirect } from "react-router";
import { currentStoreSettings } from "~/services/store-settings.server";
import { homePathFor } from "~/web/auth.server";
import { getSessionUser } from "~/web/session.server";

/**
 * `/` sends everyone where they belong: the admin panel or the shop; a visitor without a session the
 * shop's home page when the storefront is open to everyone, else the sign-in form.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getSessionUser(request);
  if (user) return redirect(homePathFor(user));
  const { storefront } = await currentStoreSettings();
  return redirect(storefront === "open" ? "/shop/home" : "/auth/login");
}
