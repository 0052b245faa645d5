import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { requireAdmin } from "~/lib/auth.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return null;
}

export const meta: MetaFunction = () => [{ title: "Admin orders · ECommerce Shopping" }];

export default function Page() {
  return (
    <section className="placeholder-page">
      <h1>All Orders</h1>
      <p>Order management arrives with the admin panel issue.</p>
    </section>
  );
}
