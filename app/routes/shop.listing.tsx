import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { requireShopper } from "~/lib/auth.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireShopper(request);
  return null;
}

export const meta: MetaFunction = () => [{ title: "All Products · ECommerce Shopping" }];

export default function Page() {
  return (
    <section className="placeholder-page">
      <h1>All Products</h1>
      <p>The product listing arrives with the storefront issue.</p>
    </section>
  );
}
