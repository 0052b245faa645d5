import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { requireShopper } from "~/lib/auth.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireShopper(request);
  return null;
}

export const meta: MetaFunction = () => [{ title: "Search · ECommerce Shopping" }];

export default function Page() {
  return (
    <section className="placeholder-page">
      <h1>Search Products</h1>
      <p>Search arrives with the storefront issue.</p>
    </section>
  );
}
