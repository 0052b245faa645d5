import { countCartItems } from "~/services/cart.server";
import type { StatusViewer } from "~/lib/status-viewer";
import { getSessionUser } from "./session.server";

/**
 * Who sees a 404 or 403 page, so that it renders inside their layout (issue 9
 * §5): the shop header for a shopper (with the cart count), the admin shell
 * for an admin, nothing for an anonymous visitor.
 */
export async function statusViewer(request: Request): Promise<StatusViewer> {
  const user = await getSessionUser(request);
  if (!user) return null;
  if (user.role === "admin") return { role: "admin", userName: user.userName };
  return { role: "shopper", userName: user.userName, cartCount: await countCartItems(user.id) };
}
