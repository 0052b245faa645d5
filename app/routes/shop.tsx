import { data, type LinksFunction, type LoaderFunctionArgs, Outlet, useLoaderData } from "react-router";
import { useMemo } from "react";
import { FlashToast } from "~/components/FlashToast";
import { CartDrawerProvider } from "~/components/CartDrawer";
import { ShopFooter } from "~/components/ShopFooter";
import { ShopHeader } from "~/components/ShopHeader";
import { useShopCart } from "~/components/useShopCart";
import { shopperOrVisitor } from "~/web/auth.server";
import { getSessionUserAndCart } from "~/web/session.server";
import { dismissCartNotices, getCartView } from "~/services/cart.server";
import type { ShopLayoutData } from "~/lib/shared/cart";
import { guestCartOf } from "~/web/guest-cart.server";
import storefrontStyles from "~/styles/storefront.css?url";
import { revalidateAfterRefusal } from "~/lib/shared/revalidation";

export const shouldRevalidate = revalidateAfterRefusal;

export const links: LinksFunction = () => [{ rel: "stylesheet", href: storefrontStyles }];

/**
 * The shop shell: the header with its cart panel, for the signed-in shopper or (the open storefront) a
 * visitor without an account. Each child route checks the shopper itself. The cart (one query) feeds
 * the badge, the drawer and the /shop/cart page, and every cart action revalidates it.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  // Asked first, so that the shopper and the cart come in one query (the page loaders' guards reuse it).
  const [found, user] = await Promise.all([getSessionUserAndCart(request), shopperOrVisitor(request)]);
  // The same user unless an action of this request signed in or out in between; a visitor of the open
  // storefront has the cart its cookie names, if any.
  const cart =
    user && found?.user.id === user.id
      ? found.cart
      : await getCartView(user ? user.id : await guestCartOf(request));
  // The notices came with the cart; this page shows them (the panel, the cart page and a toast), so they
  // are forgotten now: shown once. Without notices the page stays at its one statement.
  if (cart._id && cart.notices.length) await dismissCartNotices(cart._id);
  return data<ShopLayoutData>({ user: user && { userName: user.userName }, cart });
}

export default function ShopLayout() {
  const { user } = useLoaderData<typeof loader>();
  const cart = useShopCart();
  const noticeText = cart.notices.join(" ");
  const notice = useMemo(
    () => (noticeText ? { type: "info" as const, message: noticeText } : null),
    [noticeText],
  );
  return (
    <CartDrawerProvider cart={cart}>
      <FlashToast toast={notice} />
      <div className="shop-layout">
        <ShopHeader user={user} cartCount={cart.count} />
        <main className="shop-main" id="main-content" tabIndex={-1}>
          <Outlet />
        </main>
        <ShopFooter />
      </div>
    </CartDrawerProvider>
  );
}
