import {
  data,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  useLoaderData,
} from "react-router";
import { StatusShell } from "~/components/StatusShell";
import { MARKETING_TEXT } from "~/lib/shared/abandoned-carts";
import { CART_ACTION_PATH } from "~/lib/shared/cart";
import { revalidateAfterRefusal } from "~/lib/shared/revalidation";
import { findRestoreLink, restoreAbandonedCart } from "~/services/abandoned-carts.server";
import type { CartOwner } from "~/services/cart-owner.server";
import { requireShopper, shopperOrVisitor } from "~/web/auth.server";
import { guestCartOf, keepGuestCart } from "~/web/guest-cart.server";
import { redirectWithFlash } from "~/web/session.server";
import { statusViewer } from "~/web/status-viewer.server";
import mantineStyles from "~/styles/mantine.css?url";
import storefrontStyles from "~/styles/storefront.css?url";

export const shouldRevalidate = revalidateAfterRefusal;

/**
 * An abandoned-cart mail's restore link (API.md, "Abandoned-cart mails"): the items of the mailed cart go
 * back into the cart and the cart page opens, without JavaScript. An account's cart asks for its sign-in
 * first (and comes back here); a visitor's goes into the cart its `guest_cart` cookie names, or a new one.
 * Outside the shop layout: the link decides who must sign in, not the storefront's mode.
 */

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: mantineStyles },
  { rel: "stylesheet", href: storefrontStyles },
];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const link = await findRestoreLink(params.token);
  const refuse = async (status: number, message: string) =>
    data({ viewer: await statusViewer(request), message }, { status });
  if (!link) return refuse(404, MARKETING_TEXT.badLink);
  const path = new URL(request.url).pathname;
  let owner: CartOwner;
  if (link.userId) {
    const user = await requireShopper(request, path);
    if (user.id !== link.userId) return refuse(403, MARKETING_TEXT.restoreNotYours);
    owner = user.id;
  } else {
    const user = await shopperOrVisitor(request, path);
    owner = user ? user.id : await guestCartOf(request);
  }
  const { cartId, short } = await restoreAbandonedCart(link, owner);
  const headers = new Headers();
  if (typeof owner !== "string") headers.append("Set-Cookie", await keepGuestCart(cartId));
  return redirectWithFlash(
    request,
    CART_ACTION_PATH,
    { type: "success", message: short ? MARKETING_TEXT.restoredSomeSoldOut : MARKETING_TEXT.restored },
    { headers },
  );
}

export const meta: MetaFunction = () => [{ title: "Your cart · ECommerce Shopping" }];

export default function RestoreCartPage() {
  const { viewer, message } = useLoaderData<typeof loader>();
  return (
    <StatusShell viewer={viewer}>
      <h1>Your cart</h1>
      <p role="alert">{message}</p>
      <p>
        <a href={CART_ACTION_PATH}>Open your cart</a>
      </p>
    </StatusShell>
  );
}
