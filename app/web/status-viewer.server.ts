import type { StatusViewer } from "~/lib/shared/status-viewer";
import { isBackOffice } from "~/lib/shared/permissions";
import { getSessionUserAndCart } from "./session.server";

/**
 * Who sees a 404 or 403 page, so that it renders inside their layout: the
 * shop header for a shopper (with the cart count), the admin shell
 * for an admin, nothing for an anonymous visitor.
 */
export async function statusViewer(request: Request): Promise<StatusViewer> {
  // One query for the user and the cart (an admin's is empty); asked before any guard, it answers the guard too.
  const viewer = await getSessionUserAndCart(request);
  if (!viewer) return null;
  const { user, cart } = viewer;
  if (user.role === "admin") return { role: "admin", userName: user.userName };
  // A staff member sees the admin's frame with only their areas in its menu.
  if (isBackOffice(user))
    return { role: "admin", userName: user.userName, permissions: user.permissions ?? [] };
  return { role: "shopper", userName: user.userName, cartCount: cart.items.length };
}
