import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { requireShopper } from "~/web/auth.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireShopper(request);
  return redirect("/shop/home");
}
