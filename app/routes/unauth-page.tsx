import {
  data,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  useLoaderData,
} from "react-router";
import { StatusShell } from "~/components/StatusShell";
import { homePathFor, requireUser } from "~/web/auth.server";
import { statusViewer } from "~/web/status-viewer.server";
import mantineStyles from "~/styles/mantine.css?url";
import storefrontStyles from "~/styles/storefront.css?url";
import { revalidateAfterRefusal } from "~/lib/shared/revalidation";

export const shouldRevalidate = revalidateAfterRefusal;

// Mantine's styles for an admin, whom the admin shell (Mantine buttons) frames: links cannot depend on the viewer.
export const links: LinksFunction = () => [
  { rel: "stylesheet", href: mantineStyles },
  { rel: "stylesheet", href: storefrontStyles },
];

/** Where a shopper lands after trying an admin path: 403, inside the shop's layout. */
export async function loader({ request }: LoaderFunctionArgs) {
  // The viewer first: its query (user and cart) then answers the guard as well.
  const [viewer, user] = await Promise.all([statusViewer(request), requireUser(request)]);
  return data({ home: homePathFor(user), viewer }, { status: 403 });
}

export const meta: MetaFunction = () => [{ title: "No access · ECommerce Shopping" }];

export default function UnauthPage() {
  const { home, viewer } = useLoaderData<typeof loader>();
  return (
    <StatusShell viewer={viewer}>
      <h1>You don&apos;t have access to view this page</h1>
      <a href={home}>Back to the shop</a>
    </StatusShell>
  );
}
