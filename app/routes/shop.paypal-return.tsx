import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { requireShopper } from "~/lib/auth.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireShopper(request);
  return null;
}

export const meta: MetaFunction = () => [{ title: "Processing payment · ECommerce Shopping" }];

export default function Page() {
  return (
    <section className="placeholder-page">
      <h1>Processing Payment...Please wait!</h1>
      <p>Payment capture arrives with the checkout issue.</p>
    </section>
  );
}
