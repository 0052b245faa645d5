import {
  data,
  isRouteErrorResponse,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  useRouteError,
} from "react-router";
import { homeOf, StatusShell } from "~/components/StatusShell";
import type { StatusViewer } from "~/lib/shared/status-viewer";
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

/** Linked, not inlined: a scanner asking for missing pages gets a small document (lib/shared/inline-styles). */
export const handle = { linkStylesheets: true };

/** Any path that no route claims: 404, inside the layout of the signed-in user. */
export async function loader({ request }: LoaderFunctionArgs) {
  throw data({ viewer: await statusViewer(request) }, { status: 404 });
}

export const meta: MetaFunction = () => [{ title: "Page not found · ECommerce Shopping" }];

export default function NotFound() {
  return null;
}

export function ErrorBoundary() {
  const error = useRouteError();
  const viewer = isRouteErrorResponse(error)
    ? (error.data as { viewer?: StatusViewer } | null)?.viewer
    : undefined;
  return (
    <StatusShell viewer={viewer}>
      <h1>Page not found</h1>
      <p>page doesn&apos;t exists</p>
      <a href={homeOf(viewer)}>{viewer ? "Back to the shop" : "Go to the start page"}</a>
    </StatusShell>
  );
}
