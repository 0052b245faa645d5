import { isGuestCart, type CartOwner } from "../cart-owner.server";
import { getConfig } from "~/lib/server/config.server";
import type { CartItemJson } from "~/lib/shared/cart";
import type { AppliedDiscountJson, ShippingMethodJson } from "~/lib/shared/delivery-schemas";
import { centsToNumber, toCents } from "~/lib/shared/money";
import { taxLinesJson, type TaxLineJson } from "~/lib/shared/order-tax";
import { variantLabel } from "~/lib/shared/variants";
import { holdsCardsAlone } from "~/lib/shared/gift-card-view";
import { destinationOfPincode } from "../address-destination.server";
import { getAddress } from "../addresses.server";
import { priceCart, withTax, type CartPricing, type PricedLine, type PricingChoice } from "./pricing.server";

/**
 * The cart as the checkout page, the cart page and the tax estimate show it:
 * priced by the one money rule (pricing.server.ts), and taxed once the
 * shopper chose the address it goes to.
 */

/** A cart line (catalogue prices, like the cart API) with what the checkout adds to it. */
export interface CheckoutLine extends CartItemJson {
  totalStock: number;
  /** The image's own size when it is a processed upload (the page's srcset and box), else null. */
  imageWidth: number | null;
  imageHeight: number | null;
  /** "M · Black" (variantLabel), written on the server so the page's script needs no size vocabulary. */
  optionLabel: string;
  /** What one unit costs: the sale price when above 0, else the price. */
  unitPrice: number;
  lineTotal: number;
  /** The line's tax (all rates), or null before an address is chosen. */
  taxAmount: number | null;
}

export interface CheckoutSummary {
  cartId: string | null;
  items: CheckoutLine[];
  /** The items' sum. */
  subtotal: number;
  discountAmount: number;
  shippingAmount: number;
  /** The tax for the chosen address; null before one is chosen ("calculated at checkout"); 0 for cards alone. */
  taxAmount: number | null;
  taxLines: TaxLineJson[];
  /** Whether the prices include the tax (then the total does not change with the address). */
  pricesIncludeTax: boolean;
  /** subtotal − discount + shipping (+ tax when prices do not include it). */
  totalAmount: number;
  /** The delivery options to choose from, cheapest first (none: delivery is free). */
  shippingMethods: ShippingMethodJson[];
  shippingMethodId: string | null;
  /** The code that applies and what it takes off. */
  discount: AppliedDiscountJson | null;
  /** The code the shopper asked for, applied or not. */
  discountCode: string | null;
  /** Why that code takes nothing off. */
  discountRefusal: string | null;
  /** The gift cards bought, at face value (docs/decisions/0051). */
  giftCardLines: { _id: string; amount: number; recipient: string }[];
  /** Those cards' face values summed: the part of the total that applied cards and store credit may not pay. */
  giftCardsAmount: number;
  /** Gift cards alone: no address, no delivery, no tax (the page skips those steps). */
  cardsOnly: boolean;
}

function toCheckoutLine(line: PricedLine, taxCents: number | null): CheckoutLine {
  return {
    productId: line.productId,
    variantId: line.variantId,
    sku: line.sku,
    size: line.size,
    colour: line.colour,
    title: line.title,
    image: line.image,
    imageWidth: line.imageWidth,
    imageHeight: line.imageHeight,
    price: centsToNumber(toCents(line.price)),
    salePrice: line.salePrice === null ? 0 : centsToNumber(toCents(line.salePrice)),
    quantity: line.quantity,
    totalStock: line.totalStock,
    optionLabel: variantLabel(line),
    unitPrice: centsToNumber(line.unitCents),
    lineTotal: centsToNumber(line.unitCents * line.quantity),
    taxAmount: taxCents === null ? null : centsToNumber(taxCents),
  };
}

/** A priced cart as the pages show it. */
export function checkoutSummaryOf(pricing: CartPricing): CheckoutSummary {
  const { money } = pricing;
  const taxed = pricing.destination !== null;
  const cardsOnly = holdsCardsAlone({ clothes: pricing.lines.length, cards: pricing.giftCardLines.length });
  return {
    cartId: pricing.cartId,
    items: pricing.lines.map((line, index) =>
      toCheckoutLine(line, taxed ? (money.tax.lineTaxCents[index] ?? 0) : null),
    ),
    subtotal: centsToNumber(money.subtotalCents),
    discountAmount: centsToNumber(money.discountCents),
    shippingAmount: centsToNumber(money.shippingCents),
    taxAmount: taxed ? centsToNumber(money.tax.taxCents) : cardsOnly ? 0 : null,
    taxLines: taxLinesJson(money.tax),
    pricesIncludeTax: getConfig().pricesIncludeTax,
    totalAmount: centsToNumber(money.totalCents),
    shippingMethods: cardsOnly ? [] : pricing.methods,
    shippingMethodId: cardsOnly ? null : (pricing.shippingMethod?._id ?? null),
    discount: pricing.discount
      ? { code: pricing.discount.code, amount: centsToNumber(money.discountCents) }
      : null,
    discountCode: pricing.requestedCode,
    discountRefusal: pricing.discountRefusal,
    giftCardLines: pricing.giftCardLines.map((line) => ({
      _id: line.id,
      amount: centsToNumber(line.cents),
      recipient: line.recipientName || line.recipientEmail,
    })),
    giftCardsAmount: centsToNumber(money.giftCardCents),
    cardsOnly,
  };
}

export interface SummaryChoice extends PricingChoice {
  /** One of the shopper's addresses: the summary is taxed for it (somebody else's answers 404). */
  addressId?: unknown;
  /** A visitor's typed postcode: their cart is taxed where an order to it would be. */
  pincode?: unknown;
}

/**
 * The shopper's cart with catalogue prices, the chosen delivery option (the
 * cheapest by default), their cart's discount code and, with an address, its
 * tax: what an order would cost now.
 */
export async function getCheckoutSummary(
  owner: CartOwner,
  choice: SummaryChoice = {},
): Promise<CheckoutSummary> {
  let pricing = await priceCart(owner, choice);
  // A saved address is a shopper's; a visitor's cart is taxed once its postcode is typed.
  if (
    !isGuestCart(owner) &&
    choice.addressId !== undefined &&
    choice.addressId !== null &&
    choice.addressId !== ""
  ) {
    const address = await getAddress(owner, choice.addressId);
    pricing = await withTax(pricing, { country: address.country, region: address.region });
  } else if (isGuestCart(owner) && typeof choice.pincode === "string") {
    const destination = destinationOfPincode(choice.pincode);
    if (destination) pricing = await withTax(pricing, destination);
  }
  return checkoutSummaryOf(pricing);
}
