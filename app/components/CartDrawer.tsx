import { Drawer } from "@mantine/core";
import { Link, useLocation, type LinkProps } from "@remix-run/react";
import { createContext, useCallback, useContext, useState, type MouseEvent, type ReactNode } from "react";
import { CartContents } from "./CartContents";
import type { ShopCart } from "./useShopCart";

/**
 * The cart side panel (SPEC §2 Shop header): with JavaScript the header's cart
 * link opens a drawer titled "Your Cart"; without it the same link goes to
 * /shop/cart, which shows the same contents. One drawer for the whole shop,
 * whichever header (bar or mobile sheet) opened it.
 */

const CartDrawerContext = createContext<(() => void) | null>(null);

export function CartDrawerProvider({ cart, children }: { cart: ShopCart; children: ReactNode }) {
  const location = useLocation();
  // Open for one location only: any navigation (Checkout, a menu link) closes it.
  const [openAt, setOpenAt] = useState<string | null>(null);
  const opened = openAt === location.key;
  const open = useCallback(() => setOpenAt(location.key), [location.key]);
  const close = useCallback(() => setOpenAt(null), []);
  return (
    <CartDrawerContext.Provider value={open}>
      {children}
      <Drawer
        opened={opened}
        onClose={close}
        position="right"
        size="md"
        title="Your Cart"
        closeButtonProps={{ "aria-label": "Close the cart" }}
        classNames={{ title: "cart-drawer__title", body: "cart-drawer__body" }}
      >
        <CartContents cart={cart} redirectTo={`${location.pathname}${location.search}`} />
      </Drawer>
    </CartDrawerContext.Provider>
  );
}

/**
 * The header's cart button: a link to /shop/cart that, once the page is
 * hydrated inside a CartDrawerProvider, opens the drawer instead (a modified
 * click still opens the page in a new tab).
 */
export function CartLink(props: Omit<LinkProps, "to">) {
  const openDrawer = useContext(CartDrawerContext);
  const { onClick } = props;
  const handleClick = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (!openDrawer || event.defaultPrevented) return;
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    // The mobile menu sheet (a <details>) steps aside for the drawer.
    event.currentTarget.closest("details")?.removeAttribute("open");
    openDrawer();
  };
  return <Link {...props} to="/shop/cart" onClick={handleClick} />;
}
