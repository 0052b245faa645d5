import { Button } from "@mantine/core";
import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, NavLink, Outlet, useLocation } from "@remix-run/react";
import { requireAdmin } from "~/lib/auth.server";

/**
 * The admin shell: a side panel on large screens, a drawer (a <details>
 * disclosure, so it opens without JavaScript) on small ones. Each child route
 * checks the admin role itself: a layout does not protect its children.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireAdmin(request);
  return json({ user: { userName: user.userName } });
}

const ADMIN_MENU = [
  { id: "dashboard", label: "Dashboard", path: "/admin/dashboard" },
  { id: "products", label: "Products", path: "/admin/products" },
  { id: "orders", label: "Orders", path: "/admin/orders" },
  { id: "account", label: "Account", path: "/admin/account" },
] as const;

function AdminMenu() {
  return (
    <>
      <a href="/admin/dashboard" className="admin-brand">
        <span aria-hidden="true">▦</span> Admin Panel
      </a>
      <nav className="admin-nav" aria-label="Admin">
        {ADMIN_MENU.map((item) => (
          <NavLink key={item.id} to={item.path} prefetch="intent">
            {item.label}
          </NavLink>
        ))}
      </nav>
      <Form method="post" action="/logout" style={{ marginTop: "1.5rem" }}>
        <Button type="submit" variant="default" fullWidth>
          Logout
        </Button>
      </Form>
    </>
  );
}

export default function AdminLayout() {
  // A new key per navigation closes the drawer once it has taken the admin somewhere.
  const location = useLocation();
  return (
    <div className="admin-layout">
      <aside className="admin-sidebar" aria-label="Admin Panel">
        <AdminMenu />
      </aside>
      <div className="admin-main">
        <header className="admin-header">
          <details key={location.key} className="admin-drawer">
            <summary className="icon-button" aria-label="Open the admin menu">
              ☰
            </summary>
            <div className="admin-drawer__panel">
              <AdminMenu />
            </div>
          </details>
          <span />
          <Form method="post" action="/logout">
            <Button type="submit" radius="md">
              Logout
            </Button>
          </Form>
        </header>
        <main className="admin-content">
          <Outlet />
        </main>
      </div>
    </div>
  );
}
