import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { requireShopper } from "~/lib/auth.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireShopper(request);
  return null;
}

export const meta: MetaFunction = () => [{ title: "Checkout · ECommerce Shopping" }];

export default function Page() {
  return (
    <section className="placeholder-page">
      <h1>Checkout</h1>
      <p>Checkout arrives with the checkout issue.</p>
    </section>
  );
}
