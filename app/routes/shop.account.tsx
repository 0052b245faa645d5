import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { requireShopper } from "~/lib/auth.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireShopper(request);
  return null;
}

export const meta: MetaFunction = () => [{ title: "Account · ECommerce Shopping" }];

export default function Page() {
  return (
    <section className="placeholder-page">
      <h1>Account</h1>
      <p>Order history and addresses arrive with the checkout issue.</p>
    </section>
  );
}
