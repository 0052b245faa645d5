import { paymentItemsOf, providerAmountOf } from "./order-store.server";
import { randomUUID } from "node:crypto";
import { QueryTypes, type Transaction } from "sequelize";
import { getConfig } from "~/lib/server/config.server";
import { getDb } from "~/models/db.server";
import { conflict, notFound } from "~/lib/server/errors.server";
import { toCents } from "~/lib/shared/money";
import { isPayableAgain } from "~/lib/shared/order-options";
import { isUuid } from "~/lib/shared/uuid";
import type { OrderStatus, PaymentStatus } from "~/models/index.server";
import { getPaymentGateway } from "~/payments/index.server";
import { ORDER_NOT_FOUND } from "../orders.server";

/**
 * An order whose payment did not complete (order_status pending, payment
 * pending or declined) can be paid again ("Pay now": a new approval for the
 * same lines and total) or cancelled by its shopper. Row locks on the order
 * make a Pay now that races a capture, a cancel or a second Pay now safe; the
 * provider is called between two short transactions, never inside one
 * (docs/architecture.md, rule 9).
 */

export const PAY_AGAIN_TEXT = {
  notPayable: "This order can no longer be paid: it is paid, being paid or closed.",
  notCancellable: "Only an order that has not been paid can be cancelled.",
  raced: "Another payment was started for this order at the same moment. Please try again.",
  cancelled: "Your order is cancelled.",
} as const;

interface LockedOrder {
  id: string;
  paymentId: string | null;
  orderStatus: OrderStatus;
  paymentStatus: PaymentStatus;
  totalAmount: string;
  giftCardAmount: string;
  subtotal: string;
  shippingAmount: string;
  discountAmount: string;
  taxAmount: string;
  shippingTaxCents: number;
  pricesIncludeTax: boolean;
}

async function lockOwnOrder(userId: string, orderId: string, transaction: Transaction): Promise<LockedOrder> {
  const [order] = await getDb().sequelize.query<LockedOrder>(
    `SELECT id, payment_id AS "paymentId", order_status AS "orderStatus",
            payment_status AS "paymentStatus", total_amount AS "totalAmount", subtotal,
            gift_card_amount AS "giftCardAmount",
            shipping_amount AS "shippingAmount", discount_amount AS "discountAmount",
            tax_amount AS "taxAmount", shipping_tax_cents AS "shippingTaxCents",
            prices_include_tax AS "pricesIncludeTax"
       FROM orders WHERE id = :orderId AND user_id = :userId FOR UPDATE`,
    { replacements: { orderId, userId }, type: QueryTypes.SELECT, transaction },
  );
  if (!order) throw notFound(ORDER_NOT_FOUND);
  return order;
}

/**
 * Pay now: a new provider order for the order's lines and total, stored as
 * its paymentId (the earlier approval is abandoned). Returns where the
 * shopper approves it. 404 unknown or somebody else's order; 409 an order
 * that is not payable, or changed (captured, cancelled, paid again) while
 * the provider answered.
 */
export async function payOrderAgain(
  user: { id: string },
  orderId: string,
): Promise<{ orderId: string; approvalURL: string }> {
  if (!isUuid(orderId)) throw notFound(ORDER_NOT_FOUND);
  const { sequelize } = getDb();

  const before = await sequelize.transaction(async (transaction) => {
    const order = await lockOwnOrder(user.id, orderId, transaction);
    if (!isPayableAgain(order)) throw conflict(PAY_AGAIN_TEXT.notPayable);
    const lines = await sequelize.query<{
      title: string;
      size: string | null;
      colour: string | null;
      sku: string | null;
      price: string;
      quantity: number;
      taxCents: number;
    }>(
      `SELECT title, size, colour, sku, price, quantity, tax_cents AS "taxCents" FROM order_items
        WHERE order_id = :orderId ORDER BY title, id`,
      { replacements: { orderId }, type: QueryTypes.SELECT, transaction },
    );
    const cards = await sequelize.query<{ amount: string }>(
      `SELECT amount FROM order_gift_card_items WHERE order_id = :orderId ORDER BY position`,
      { replacements: { orderId }, type: QueryTypes.SELECT, transaction },
    );
    // The same amount and parts as the first approval: the order's stored money, never recomputed.
    const money = {
      subtotalCents: toCents(order.subtotal),
      shippingCents: toCents(order.shippingAmount),
      discountCents: toCents(order.discountAmount),
      totalCents: toCents(order.totalAmount),
      tax: {
        pricesIncludeTax: order.pricesIncludeTax,
        lineTaxCents: lines.map((line) => line.taxCents),
        shippingTaxCents: order.shippingTaxCents,
        taxCents: toCents(order.taxAmount),
      },
    };
    return {
      paymentId: order.paymentId,
      money,
      paidByBalancesCents: toCents(order.giftCardAmount),
      items: paymentItemsOf(
        lines.map((line) => ({ ...line, unitCents: toCents(line.price) })),
        money,
        cards.map((card) => toCents(card.amount)),
      ),
    };
  });

  const { appUrl } = getConfig();
  const payment = await getPaymentGateway().createOrder({
    orderId,
    ...providerAmountOf(orderId, before.items, before.money, before.paidByBalancesCents),
    currency: "USD",
    returnUrl: `${appUrl}/shop/paypal-return`,
    cancelUrl: `${appUrl}/shop/paypal-cancel`,
    requestId: `pay-again-${orderId}-${randomUUID()}`,
  });

  await sequelize.transaction(async (transaction) => {
    const order = await lockOwnOrder(user.id, orderId, transaction);
    if (!isPayableAgain(order)) throw conflict(PAY_AGAIN_TEXT.notPayable);
    // Compare and set: of two Pay nows at once, only the first keeps its approval.
    if (order.paymentId !== before.paymentId) throw conflict(PAY_AGAIN_TEXT.raced);
    await sequelize.query(
      `UPDATE orders SET payment_id = :paymentId, payment_status = 'pending', payer_id = NULL,
              order_update_date = now(), updated_at = now()
        WHERE id = :orderId`,
      { replacements: { orderId, paymentId: payment.providerOrderId }, transaction },
    );
  });
  return { orderId, approvalURL: payment.approvalUrl };
}

/**
 * The shopper closes an unpaid order (order_status cancelled; no stock was
 * reserved before a capture began, so none goes back). 404 unknown order;
 * 409 an order that is paid, being paid or closed.
 */
export async function cancelUnpaidOrder(user: { id: string }, orderId: string): Promise<void> {
  if (!isUuid(orderId)) throw notFound(ORDER_NOT_FOUND);
  const { sequelize } = getDb();
  await sequelize.transaction(async (transaction) => {
    const order = await lockOwnOrder(user.id, orderId, transaction);
    if (!isPayableAgain(order)) throw conflict(PAY_AGAIN_TEXT.notCancellable);
    // The provider order is let go with it: an approval given earlier finds no order to capture.
    await sequelize.query(
      `UPDATE orders SET order_status = 'cancelled', payment_id = NULL, order_update_date = now(),
              updated_at = now()
        WHERE id = :orderId`,
      { replacements: { orderId }, transaction },
    );
  });
}
