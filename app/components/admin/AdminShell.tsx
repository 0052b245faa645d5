import { Button } from "@mantine/core";
import { Form, NavLink, useLocation } from "react-router";
import type { ReactNode } from "react";
import { adminMenuFor, PERMISSIONS, type Permission } from "~/lib/shared/permissions";

function AdminMenu({ permissions }: { permissions: readonly Permission[] }) {
  return (
    <>
      <a href="/admin/dashboard" className="admin-brand">
        <span aria-hidden="true">▦</span> Admin Panel
      </a>
      <nav className="admin-nav" aria-label="Admin">
        {adminMenuFor(permissions).map((item) => (
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

/**
 * The admin shell: a side panel on large screens, a drawer (a <details>
 * disclosure, so it opens without JavaScript) on small ones. Used by the
 * admin layout and by the 404 and 403 pages an admin meets. The menu lists
 * only the areas of `permissions`, which the server sends (none given: an
 * admin's, every area).
 */
export function AdminShell({
  children,
  permissions = PERMISSIONS,
}: {
  children: ReactNode;
  permissions?: readonly Permission[];
}) {
  // A new key per navigation closes the drawer once it has taken the admin somewhere.
  const location = useLocation();
  return (
    <div className="admin-layout">
      <aside className="admin-sidebar" aria-label="Admin Panel">
        <AdminMenu permissions={permissions} />
      </aside>
      <div className="admin-main">
        <header className="admin-header">
          <details key={location.key} className="admin-drawer">
            <summary className="icon-button" aria-label="Open the admin menu">
              ☰
            </summary>
            <div className="admin-drawer__panel">
              <AdminMenu permissions={permissions} />
            </div>
          </details>
          <span />
          <Form method="post" action="/logout">
            <Button type="submit" radius="md">
              Logout
            </Button>
          </Form>
        </header>
        <main className="admin-content" id="main-content" tabIndex={-1}>
          {children}
        </main>
      </div>
    </div>
  );
}
