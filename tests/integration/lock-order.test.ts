import { beforeEach, describe, expect, it } from "vitest";
import { setPaymentGateway } from "../../app/payments/index.server";
import { captureOrderPayment } from "../../app/services/checkout.server";
import { addToCart } from "../../app/services/cart-lines.server";
import { updateProduct } from "../../app/services/product-writer.server";
import { isAppError } from "../../app/lib/server/errors.server";
import { resetDatabase } from "../support/database";
import { approvedOrder, createProduct, createShopper } from "./checkout-support";

/**
 * The house's lock order holds between the writers that meet on one product on a sale day: captures that
 * take its stock, shoppers adding it to their carts and an admin editing it, all at once. None of them may
 * end in a deadlock (PostgreSQL's 40P01, a 500 for the person): each waits its turn and answers as alone.
 */

beforeEach(async () => {
  await resetDatabase();
  setPaymentGateway(undefined);
});

/** Why a call failed, for the assertion: its status when refused, else the database's error. */
function failureOf(result: PromiseSettledResult<unknown>): string | null {
  if (result.status === "fulfilled") return null;
  const error = result.reason as { status?: number; message?: string; parent?: { code?: string } };
  if (isAppError(error)) return `${error.status} ${error.message}`;
  return `${error.parent?.code ?? "?"} ${error.message ?? String(error)}`;
}

describe("writers of one product at once", () => {
  it("captures, cart adds and an admin's edits of one product end without a deadlock", async () => {
    const product = await createProduct({ title: "Busy Tee", totalStock: 500, price: "20.00" });
    const buyers = await Promise.all(Array.from({ length: 6 }, (_, i) => createShopper(`Buyer ${i}`)));
    const browsers = await Promise.all(Array.from({ length: 12 }, (_, i) => createShopper(`Browser ${i}`)));
    const orders = [];
    for (const buyer of buyers) orders.push({ buyer, ...(await approvedOrder(buyer, product.id)) });

    const results = await Promise.allSettled([
      ...orders.map((order) => captureOrderPayment(order.buyer, { paymentId: order.paymentId })),
      ...browsers.map((browser) => addToCart(browser.id, product.id, 1)),
      ...[1, 2, 3].map((round) => updateProduct(product.id, { title: `Busy Tee ${round}` })),
    ]);

    expect(results.map(failureOf).filter(Boolean)).toEqual([]);
  });
});
