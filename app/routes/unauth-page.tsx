import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { homePathFor, requireUser } from "~/lib/auth.server";
import { useLoaderData } from "@remix-run/react";

/** Where a shopper lands after trying an admin path. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return json({ home: homePathFor(user) }, { status: 403 });
}

export const meta: MetaFunction = () => [{ title: "No access · ECommerce Shopping" }];

export default function UnauthPage() {
  const { home } = useLoaderData<typeof loader>();
  return (
    <main className="status-page">
      <h1>You don&apos;t have access to view this page</h1>
      <a href={home}>Back to the shop</a>
    </main>
  );
}
