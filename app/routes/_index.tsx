import { type LoaderFunctionArgs, redirect } from "react-router";
import { homePathFor } from "~/web/auth.server";
import { getSessionUser } from "~/web/session.server";

/** `/` sends everyone where they belong: sign-in, the admin panel or the shop. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getSessionUser(request);
  return redirect(user ? homePathFor(user) : "/auth/login");
}
