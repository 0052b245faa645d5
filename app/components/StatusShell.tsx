import type { ReactNode } from "react";
import type { StatusViewer } from "~/lib/shared/status-viewer";
import { AdminShell } from "./admin/AdminShell";
import { ShopFooter } from "./ShopFooter";
import { ShopHeader } from "./ShopHeader";

/**
 * A status page (404, 403) in the layout of whoever sees it:
 * the shop's header and footer for a shopper, the admin shell for an admin,
 * the bare page for an anonymous visitor.
 */
export function StatusShell({ viewer, children }: { viewer: StatusViewer | undefined; children: ReactNode }) {
  const page = <section className="status-page">{children}</section>;
  if (viewer?.role === "admin") return <AdminShell permissions={viewer.permissions}>{page}</AdminShell>;
  if (viewer?.role === "shopper") {
    return (
      <div className="shop-layout">
        <ShopHeader user={{ userName: viewer.userName }} cartCount={viewer.cartCount} />
        <main className="shop-main" id="main-content" tabIndex={-1}>
          {page}
        </main>
        <ShopFooter />
      </div>
    );
  }
  return (
    <main className="status-page" id="main-content" tabIndex={-1}>
      {children}
    </main>
  );
}

/** Where "back" goes for each viewer. */
export function homeOf(viewer: StatusViewer | undefined): string {
  if (viewer?.role === "admin") return "/admin/dashboard";
  if (viewer?.role === "shopper") return "/shop/home";
  return "/";
}
