import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { requireAdmin } from "~/web/auth.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return redirect("/admin/dashboard");
}
