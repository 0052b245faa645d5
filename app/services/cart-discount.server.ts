import { CART_TEXT, type CartJson } from "~/lib/shared/cart";
import { getDb } from "~/models/db.server";
import { badRequest } from "~/lib/server/errors.server";
import { centsToNumber } from "~/lib/shared/money";
import { discountCodeSchema, type AppliedDiscountJson } from "~/lib/shared/delivery-schemas";
import { priceCart } from "./checkout/pricing.server";
import { getCart } from "./cart.server";
import { cartOwnerMatch, type CartOwner } from "./cart-owner.server";
import { isUuid } from "~/lib/shared/uuid";

/** The discount code on the cart: put on, taken off, and what it takes off now. */

/** The cart as the discount calls answer it (API.md): the cart and what its code takes off. */
export interface CartWithDiscountJson extends CartJson {
  discount: AppliedDiscountJson | null;
}

/** The cart with its code's discount now (null when it has none, or the code no longer applies). */
export async function getCartWithDiscount(owner: CartOwner): Promise<CartWithDiscountJson> {
  const [cart, pricing] = await Promise.all([getCart(owner), priceCart(owner, {})]);
  return {
    ...cart,
    discount: pricing.discount
      ? { code: pricing.discount.code, amount: centsToNumber(pricing.money.discountCents) }
      : null,
  };
}

/**
 * Puts a discount code on the shopper's cart after checking it against the
 * cart: 400 with the reason when it cannot be used (unknown, not yet valid,
 * ended, used up, used by this shopper the allowed number of times, below
 * its minimum, none of the items of its kind) or the cart is empty. The
 * capture checks it again (its uses are counted only then).
 */
export async function applyCartDiscount(owner: CartOwner, code: unknown): Promise<CartWithDiscountJson> {
  const parsed = discountCodeSchema.safeParse(code);
  if (!parsed.success) {
    const message = parsed.error.issues[0]?.message ?? "Invalid discount code";
    throw badRequest(message, { code: [message] });
  }
  const { sequelize } = getDb();
  await sequelize.transaction(async (transaction) => {
    const pricing = await priceCart(owner, { discountCode: parsed.data }, transaction);
    if (!pricing.lines.length)
      throw badRequest(CART_TEXT.emptyForDiscount, { code: [CART_TEXT.emptyForDiscount] });
    if (pricing.discountRefusal || !pricing.discount) {
      const message = pricing.discountRefusal ?? CART_TEXT.emptyForDiscount;
      throw badRequest(message, { code: [message] });
    }
    await sequelize.query(`UPDATE carts SET discount_code = :code, updated_at = now() WHERE id = :cartId`, {
      replacements: { code: pricing.discount.code, cartId: pricing.cartId },
      transaction,
    });
  });
  return getCartWithDiscount(owner);
}

/** Takes the discount code off the shopper's cart (nothing happens when there is none). */
export async function removeCartDiscount(owner: CartOwner): Promise<CartWithDiscountJson> {
  const match = cartOwnerMatch(owner, "c", ":owner");
  if (isUuid(match.value)) {
    await getDb().sequelize.query(
      `UPDATE carts c SET discount_code = NULL, updated_at = now() WHERE ${match.where} AND c.discount_code IS NOT NULL`,
      { replacements: { owner: match.value } },
    );
  }
  return getCartWithDiscount(owner);
}
