import type { LoaderFunctionArgs, MetaFunction } from "react-router";
import { requireAdmin } from "~/web/auth.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return null;
}

export const meta: MetaFunction = () => [{ title: "Admin features · ECommerce Shopping" }];

export default function AdminFeatures() {
  return <div>admin features</div>;
}
