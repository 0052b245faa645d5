import { data, type LinksFunction, type LoaderFunctionArgs, Outlet, useLoaderData } from "react-router";
import { AdminShell } from "~/components/admin/AdminShell";
import { requireAdmin } from "~/web/auth.server";
import mantineStyles from "~/styles/mantine.css?url";
import { revalidateAfterRefusal } from "~/lib/shared/revalidation";

export const shouldRevalidate = revalidateAfterRefusal;

// The admin is built from Mantine components: their styles (the root links only Mantine's base).
export const links: LinksFunction = () => [{ rel: "stylesheet", href: mantineStyles }];

/**
 * The admin layout (the shell lives in AdminShell, which the 404 and 403
 * pages share). Each child route checks its area itself: a layout does not
 * protect its children. The menu shows only the areas the person holds.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireAdmin(request);
  return data({ user: { userName: user.userName, permissions: user.permissions ?? [] } });
}

export default function AdminLayout() {
  const { user } = useLoaderData<typeof loader>();
  return (
    <AdminShell permissions={user.permissions}>
      <Outlet />
    </AdminShell>
  );
}
