import { data } from "react-router";
import type { SessionUser } from "~/services/users.server";
import { ALERT_INTENTS, STOCK_ALERT_TEXT, WISHLIST_TEXT } from "~/lib/shared/stock-alerts";
import type { StorefrontActionData } from "~/lib/shared/storefront-action";
import { createStockAlert } from "~/services/stock-alerts.server";
import { shopperProductState, type ShopperProductState } from "~/services/shopper-product-state.server";
import { addToWishlist, removeProductFromWishlist } from "~/services/wishlist.server";
import { runOrRefuse } from "./form-action.server";
import { redirectWithFlash } from "./session.server";

/**
 * The storefront's "Notify me when it's back" and the heart: small forms that
 * post to the page they are on (storefront-action.server.ts hands their
 * intents here). Success redirects back with a flash message; a refusal
 * answers its status with the message, with or without JavaScript.
 */

/** What a visitor without an account has of a product: no alerts, no heart. */
const NOBODY_STATE: ShopperProductState = { waitingVariantIds: [], wishlisted: false };

/** The product's details (being read) with the shopper's state beside them, read side by side; null stays null. */
export async function withShopperState<T extends object>(
  userId: string | null,
  productId: string,
  details: Promise<T | null>,
): Promise<(T & { shopper: ShopperProductState }) | null> {
  const [found, shopper] = await Promise.all([
    details,
    userId ? shopperProductState(userId, productId) : NOBODY_STATE,
  ]);
  return found ? { ...found, shopper } : null;
}

const ALERT_INTENT_VALUES = new Set<unknown>(Object.values(ALERT_INTENTS));

export function isAlertIntent(intent: unknown): boolean {
  return ALERT_INTENT_VALUES.has(intent);
}

/** Handles one of ALERT_INTENTS for `user`; `backTo` is the page the form was on. */
export async function handleAlertIntent(
  request: Request,
  user: SessionUser,
  formData: FormData,
  backTo: string,
) {
  const intent = formData.get("intent");
  const productId = String(formData.get("productId") ?? "");
  const variantId = formData.get("variantId") ?? undefined;
  return runOrRefuse(
    async () => {
      if (intent === ALERT_INTENTS.notify) {
        const { created } = await createStockAlert(user.id, { productId, variantId });
        return redirectWithFlash(request, backTo, {
          type: "success",
          message: created ? STOCK_ALERT_TEXT.created : STOCK_ALERT_TEXT.already,
        });
      }
      if (intent === ALERT_INTENTS.wishlistRemove) {
        await removeProductFromWishlist(user.id, productId);
        return redirectWithFlash(request, backTo, { type: "success", message: WISHLIST_TEXT.removed });
      }
      const { created } = await addToWishlist(user.id, { productId, variantId });
      return redirectWithFlash(request, backTo, {
        type: "success",
        message: created ? WISHLIST_TEXT.added : WISHLIST_TEXT.already,
      });
    },
    (error) =>
      data<StorefrontActionData>(
        { intent: "alert", productId, toast: { type: "error", message: error.message } },
        { status: error.status },
      ),
  );
}
