import type { LoaderFunctionArgs, MetaFunction } from "react-router";
import { requireArea } from "~/web/auth.server";
import { revalidateAfterRefusal } from "~/lib/shared/revalidation";

export const shouldRevalidate = revalidateAfterRefusal;

export async function loader({ request }: LoaderFunctionArgs) {
  await requireArea(request, "banners");
  return null;
}

export const meta: MetaFunction = () => [{ title: "Admin features · ECommerce Shopping" }];

export default function AdminFeatures() {
  return <div>admin features</div>;
}
