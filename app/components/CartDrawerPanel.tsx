import { Drawer } from "@mantine/core";
import { CartContents } from "./CartContents";
import type { ShopCart } from "./useShopCart";

/**
 * The drawer itself, in a chunk of its own: CartDrawerProvider loads it the
 * first time the shopper opens the cart, so that pages do not download
 * Mantine's Drawer (with its scroll lock and focus trap) up front
 * (the storefront's JavaScript budget, docs/decisions/0008).
 */
export default function CartDrawerPanel({
  cart,
  opened,
  onClose,
  redirectTo,
}: {
  cart: ShopCart;
  opened: boolean;
  onClose: () => void;
  redirectTo: string;
}) {
  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      position="right"
      size="md"
      title="Your Cart"
      closeButtonProps={{ "aria-label": "Close the cart" }}
      classNames={{ title: "cart-drawer__title", body: "cart-drawer__body" }}
    >
      <CartContents cart={cart} redirectTo={redirectTo} />
    </Drawer>
  );
}
