import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { requireShopper } from "~/lib/auth.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireShopper(request);
  return null;
}

export const meta: MetaFunction = () => [{ title: "Home · ECommerce Shopping" }];

export default function Page() {
  return (
    <section className="placeholder-page">
      <h1>Welcome to the shop</h1>
      <p>The home page with banners, categories and featured products arrives with the storefront issue.</p>
    </section>
  );
}
