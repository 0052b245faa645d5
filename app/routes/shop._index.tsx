import { type LoaderFunctionArgs, redirect } from "react-router";
import { requireShopper } from "~/web/auth.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireShopper(request);
  return redirect("/shop/home");
}
