import { type ActionFunctionArgs, redirect } from "react-router";
import { destroyUserSession, setFlash } from "~/web/session.server";

/** Sign-out is a POST (a link could be prefetched or forged); GET just goes home. */
export async function action({ request }: ActionFunctionArgs) {
  const headers = new Headers();
  headers.append("Set-Cookie", await destroyUserSession(request));
  headers.append(
    "Set-Cookie",
    await setFlash(request, { type: "success", message: "Logged out successfully!" }),
  );
  return redirect("/auth/login", { headers });
}

export async function loader() {
  return redirect("/");
}
