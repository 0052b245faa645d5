import { cartOwnerMatch, isGuestCart, type CartOwner } from "../cart-owner.server";
import { QueryTypes, type Transaction } from "sequelize";
import { getDb } from "~/models/db.server";
import { badRequest } from "~/lib/server/errors.server";
import type { ShippingMethodJson } from "~/lib/shared/delivery-schemas";
import { toCents } from "~/lib/shared/money";
import {
  computeOrderMoney,
  type DiscountRule,
  type MoneyLine,
  type OrderMoney,
  type ShippingChoice,
} from "~/lib/shared/order-money";
import type { TaxDestination } from "~/lib/shared/order-tax";
import { getConfig } from "~/lib/server/config.server";
import { taxRulesFor } from "../tax-rates.server";
import { variantPriceSql } from "~/lib/shared/product";
import { uploadedImageJoinSql } from "~/lib/shared/images";
import { isUuid } from "~/lib/shared/uuid";
import {
  discountCodeRefusal,
  discountMoneyRefusal,
  discountRuleOf,
  findDiscountCode,
  type DiscountCodeRow,
} from "../discounts.server";
import { listActiveShippingMethods, SHIPPING_TEXT, shippingChoiceOf } from "../shipping.server";
import { isBlank } from "./refusals.server";
import { readCartGiftCardLines, type PricedGiftCardLine } from "../gift-cards/card-lines.server";

/**
 * A cart priced as an order would be now: its lines at catalogue prices, the
 * delivery option, the discount code, and the money of lib/shared/order-money.ts.
 * The checkout page, the cart page's discount, the cart API and order
 * creation all read it, so what a shopper sees is what the order stores.
 */

export interface CartLineRow {
  productId: string;
  variantId: string;
  sku: string;
  size: string | null;
  colour: string | null;
  title: string;
  image: string;
  /** The picture's own size when it is a processed upload (the checkout's line pictures). */
  imageWidth: number | null;
  imageHeight: number | null;
  category: string;
  brand: string;
  price: string;
  salePrice: string | null;
  /** What one unit costs: the sale price when above 0, else the price. */
  effectivePrice: string;
  totalStock: number;
  quantity: number;
}

export interface PricedLine extends CartLineRow {
  unitCents: number;
}

const VARIANT_PRICE = variantPriceSql("v", "p");

async function readCartLines(
  cartId: string,
  transaction?: Transaction,
  forUpdate = false,
): Promise<PricedLine[]> {
  const rows = await getDb().sequelize.query<CartLineRow>(
    `SELECT ci.product_id AS "productId", ci.variant_id AS "variantId", v.sku, v.size, v.colour,
            ci.quantity, p.title, p.image, pi.width AS "imageWidth", pi.height AS "imageHeight",
            p.category, p.brand, priced.price, priced.sale_price AS "salePrice",
            CASE WHEN priced.sale_price > 0 THEN priced.sale_price ELSE priced.price END AS "effectivePrice",
            v.total_stock AS "totalStock"
       FROM cart_items ci
       JOIN product_variants v ON v.id = ci.variant_id
       JOIN products p ON p.id = ci.product_id
       ${uploadedImageJoinSql("p.image", "pi")}
       CROSS JOIN LATERAL (SELECT ${VARIANT_PRICE.price} AS price, ${VARIANT_PRICE.salePrice} AS sale_price) priced
      WHERE ci.cart_id = :cartId
      ORDER BY ci.created_at, ci.id
      ${forUpdate ? "FOR UPDATE OF ci" : ""}`,
    { replacements: { cartId }, type: QueryTypes.SELECT, transaction },
  );
  return rows.map((row) => ({ ...row, unitCents: toCents(row.effectivePrice) }));
}

export interface PricingChoice {
  /** A delivery option's id; blank: the cheapest. */
  shippingMethodId?: unknown;
  /** A code; undefined: the cart's own code; blank: none. */
  discountCode?: unknown;
  /** A guest's email at checkout: their uses of a code count by it (a shopper's by their account). */
  guestEmail?: string;
}

export interface CartPricing {
  cartId: string | null;
  lines: PricedLine[];
  /** The gift cards bought, at face value: no stock, tax or delivery (docs/decisions/0051). */
  giftCardLines: PricedGiftCardLine[];
  /** The active delivery options, cheapest first (none: delivery is free). */
  methods: ShippingMethodJson[];
  shippingMethod: ShippingMethodJson | null;
  /** The code the shopper asked for (theirs on the cart, or the request's), as they typed it. */
  requestedCode: string | null;
  /** The code that applies, when it does. */
  discount: DiscountCodeRow | null;
  /** Why the requested code takes nothing off, when it does not. */
  discountRefusal: string | null;
  /** The request named a delivery option that is not offered (the cheapest was taken instead). */
  shippingMethodUnknown: boolean;
  /** Without a destination, untaxed (the page says "calculated at checkout"); see withTax. */
  money: OrderMoney;
  /** The destination the money was taxed for, or null before one is known. */
  destination: TaxDestination | null;
  /** What the money was computed from, so that withTax computes it again with the destination's rates. */
  moneyInputs: {
    lines: MoneyLine[];
    shipping: ShippingChoice | null;
    discount: DiscountRule | null;
    giftCardCents: number;
  };
}

const UNKNOWN_SHIPPING = SHIPPING_TEXT.unknownForOrder;

/**
 * Prices the shopper's cart. An unknown delivery option falls back to the
 * cheapest (`shippingMethodUnknown`) and a code that cannot be used takes
 * nothing off (`discountRefusal` says why): order creation refuses both, the
 * pages show them. With `transaction`,
 * the cart row and its lines are locked (carts → cart_items, the house's order).
 */
export async function priceCart(
  owner: CartOwner,
  choice: PricingChoice,
  transaction?: Transaction,
): Promise<CartPricing> {
  const { sequelize } = getDb();
  const match = cartOwnerMatch(owner, "c", ":owner");
  const [cart] = isUuid(match.value)
    ? await sequelize.query<{ id: string; discountCode: string | null }>(
        `SELECT c.id, c.discount_code AS "discountCode" FROM carts c WHERE ${match.where} ${transaction ? "FOR UPDATE" : ""}`,
        { replacements: { owner: match.value }, type: QueryTypes.SELECT, transaction },
      )
    : [];
  const lines = cart ? await readCartLines(cart.id, transaction, Boolean(transaction)) : [];
  const giftCardLines = cart ? await readCartGiftCardLines(cart.id, transaction) : [];
  const giftCardCents = giftCardLines.reduce((sum, line) => sum + line.cents, 0);

  const methods = await listActiveShippingMethods(transaction);
  let shippingMethod = methods[0] ?? null;
  let shippingMethodUnknown = false;
  if (!isBlank(choice.shippingMethodId)) {
    const chosen = isUuid(choice.shippingMethodId)
      ? methods.find((method) => method._id === choice.shippingMethodId)
      : undefined;
    if (chosen) shippingMethod = chosen;
    else shippingMethodUnknown = true;
  }

  const requested = choice.discountCode === undefined ? (cart?.discountCode ?? null) : choice.discountCode;
  let requestedCode: string | null = null;
  if (!isBlank(requested)) {
    if (typeof requested !== "string") {
      throw badRequest("discountCode must be a text", { discountCode: ["discountCode must be a text"] });
    }
    requestedCode = requested.trim();
  }
  const lineMoney = lines.map((line) => ({
    unitCents: line.unitCents,
    quantity: line.quantity,
    category: line.category,
    brand: line.brand,
  }));
  const shipping = shippingMethod ? shippingChoiceOf(shippingMethod) : null;

  let discount: DiscountCodeRow | null = null;
  let discountRefusal: string | null = null;
  let discountRule: DiscountRule | null = null;
  let money = computeOrderMoney(lineMoney, shipping, null, undefined, giftCardCents);
  if (requestedCode !== null) {
    const row = await findDiscountCode(requestedCode, transaction);
    const customer = !isGuestCart(owner)
      ? owner
      : choice.guestEmail
        ? { guestEmail: choice.guestEmail }
        : null;
    discountRefusal = await discountCodeRefusal(requestedCode, row, customer, new Date(), transaction);
    if (!discountRefusal && row) {
      const rule = discountRuleOf(row);
      const discounted = computeOrderMoney(lineMoney, shipping, rule, undefined, giftCardCents);
      discountRefusal = lines.length ? discountMoneyRefusal(row.code, discounted) : null;
      if (!discountRefusal) {
        money = discounted;
        discount = row;
        discountRule = rule;
      }
    }
  }
  return {
    cartId: cart?.id ?? null,
    lines,
    giftCardLines,
    methods,
    shippingMethod,
    requestedCode,
    discount,
    discountRefusal,
    shippingMethodUnknown,
    money,
    destination: null,
    moneyInputs: { lines: lineMoney, shipping, discount: discountRule, giftCardCents },
  };
}

/**
 * The same cart taxed for `destination`: the rates that match it, read on
 * `transaction` (the order's own, so that an order's tax comes from one
 * consistent set of rates), and the shop's PRICES_INCLUDE_TAX.
 */
export async function withTax(
  pricing: CartPricing,
  destination: TaxDestination,
  transaction?: Transaction,
): Promise<CartPricing> {
  const rules = await taxRulesFor(destination, transaction);
  const { lines, shipping, discount, giftCardCents } = pricing.moneyInputs;
  const money = computeOrderMoney(
    lines,
    shipping,
    discount,
    { rules, pricesIncludeTax: getConfig().pricesIncludeTax },
    giftCardCents,
  );
  return { ...pricing, money, destination };
}

/** Order creation's 400s: a delivery option that is not offered, a code that cannot be used. */
export function assertPricingAccepted(pricing: CartPricing): void {
  if (pricing.shippingMethodUnknown) {
    throw badRequest(UNKNOWN_SHIPPING, { shippingMethodId: [UNKNOWN_SHIPPING] });
  }
  if (pricing.discountRefusal) {
    throw badRequest(pricing.discountRefusal, { discountCode: [pricing.discountRefusal] });
  }
}
