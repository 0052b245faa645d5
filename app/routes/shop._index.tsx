import { type LoaderFunctionArgs, redirect } from "react-router";
import { shopperOrVisitor } from "~/web/auth.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await shopperOrVisitor(request);
  return redirect("/shop/home");
}
