import { badRequest } from "~/lib/server/errors.server";
import { centsToNumber } from "~/lib/shared/money";
import { taxLinesJson, type TaxLineJson } from "~/lib/shared/order-tax";
import { getAddress } from "./addresses.server";
import { assertPricingAccepted, priceCart, withTax } from "./checkout/pricing.server";
import { isBlank } from "./checkout/refusals.server";

/**
 * What the shopper's cart costs to one of their addresses (API.md, "Sales tax
 * and VAT", tax-estimate): the same pricing and tax as order creation, so the
 * checkout shows the figure that will be charged.
 */

export interface TaxEstimate {
  subtotal: number;
  discountAmount: number;
  shippingAmount: number;
  taxAmount: number;
  taxLines: TaxLineJson[];
  totalAmount: number;
}

const ADDRESS_REQUIRED = "addressId is required: one of your saved addresses";

export async function estimateCartTax(
  userId: string,
  body: { addressId?: unknown; shippingMethodId?: unknown },
): Promise<TaxEstimate> {
  if (isBlank(body.addressId)) throw badRequest(ADDRESS_REQUIRED, { addressId: [ADDRESS_REQUIRED] });
  // Somebody else's address answers 404, like an unknown one.
  const address = await getAddress(userId, body.addressId);
  const untaxed = await priceCart(userId, { shippingMethodId: body.shippingMethodId });
  assertPricingAccepted(untaxed);
  const { money } = await withTax(untaxed, { country: address.country, region: address.region });
  return {
    subtotal: centsToNumber(money.subtotalCents),
    discountAmount: centsToNumber(money.discountCents),
    shippingAmount: centsToNumber(money.shippingCents),
    taxAmount: centsToNumber(money.tax.taxCents),
    taxLines: taxLinesJson(money.tax),
    totalAmount: centsToNumber(money.totalCents),
  };
}
