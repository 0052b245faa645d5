import { QueryTypes, type Transaction } from "sequelize";
import { getConfig } from "~/lib/server/config.server";
import type { ReturnType } from "~/lib/shared/returns";
import { trackingUrl } from "~/lib/shared/tracking";
import { getDb } from "~/models/db.server";
import type { AddressSnapshot, OrderStatus, PaymentStatus } from "~/models/index.server";
import { enqueueMail, type MailKind } from "./outbox.server";
import { FIND_GUEST_ORDER_PATH, GUEST_BUYER_NAME, guestOrderPath } from "~/lib/shared/guest-orders";
import { issueGuestOrderToken } from "../guest-order-token.server";
import {
  orderMailFor,
  returnMailFor,
  type ReturnMailData,
  type ReturnMailEvent,
  type OrderMailData,
  type OrderMailEvent,
  type OrderMailItem,
} from "./templates.server";

/**
 * The order mails, one call each for the code that changes an order. Call
 * them inside the transaction that makes the change, after the change: they
 * read the order through that transaction and write the mail into the outbox
 * with it, so the mail exists exactly when the change commits. Each event
 * mails once per order (a repeated capture or a status set twice sends
 * nothing new).
 */

const KIND_OF: Record<OrderMailEvent, MailKind> = {
  confirmed: "order-confirmed",
  inShipping: "order-in-shipping",
  tracking: "order-tracking",
  delivered: "order-delivered",
  rejected: "order-rejected",
  refunded: "order-refunded",
};

interface OrderMailRow {
  id: string;
  orderStatus: OrderStatus;
  paymentStatus: PaymentStatus;
  totalAmount: string;
  subtotal: string;
  shippingAmount: string;
  discountAmount: string;
  taxAmount: string;
  pricesIncludeTax: boolean;
  shippingMethodName: string | null;
  discountCode: string | null;
  addressInfo: AddressSnapshot;
  email: string;
  userName: string;
  /** A guest's order: its link is the private one (a new token), or "Find my order" (docs/decisions/0044). */
  guest: boolean;
  trackingNumber: string | null;
  carrier: string | null;
}

async function loadOrder(orderId: string, transaction: Transaction) {
  const { sequelize } = getDb();
  const [order] = await sequelize.query<OrderMailRow>(
    `SELECT o.id, o.order_status AS "orderStatus", o.payment_status AS "paymentStatus",
            o.total_amount AS "totalAmount", o.address_info AS "addressInfo",
            COALESCE(u.email, o.guest_email) AS email, COALESCE(u.user_name, :guestName) AS "userName",
            o.user_id IS NULL AS "guest",
            o.tracking_number AS "trackingNumber", o.carrier,
            o.subtotal, o.shipping_amount AS "shippingAmount", o.discount_amount AS "discountAmount",
            o.shipping_method_name AS "shippingMethodName", o.discount_code AS "discountCode",
            o.tax_amount AS "taxAmount", o.prices_include_tax AS "pricesIncludeTax"
       FROM orders o LEFT JOIN users u ON u.id = o.user_id
      WHERE o.id = :orderId`,
    { replacements: { orderId, guestName: GUEST_BUYER_NAME }, type: QueryTypes.SELECT, transaction },
  );
  if (!order) throw new Error(`Order ${orderId} not found for its mail`);
  const items = await sequelize.query<OrderMailItem>(
    // The gift cards bought after the clothes, each as a line for its recipient (its code goes to them alone).
    `SELECT title, price, quantity, sku, size, colour FROM (
       SELECT title, price, quantity, sku, size, colour, 0 AS kind, id::text AS key
         FROM order_items WHERE order_id = :orderId
       UNION ALL
       SELECT 'Gift card for ' || COALESCE(recipient_name, recipient_email), amount, 1, NULL, NULL, NULL, 1,
              lpad(position::text, 10, '0')
         FROM order_gift_card_items WHERE order_id = :orderId
     ) lines ORDER BY kind, title, key`,
    { replacements: { orderId }, type: QueryTypes.SELECT, transaction },
  );
  return { order, items };
}

function trackingOf(order: OrderMailRow): NonNullable<OrderMailData["tracking"]> {
  return {
    number: order.trackingNumber,
    carrier: order.carrier,
    url: trackingUrl(order.carrier, order.trackingNumber),
  };
}

/**
 * Where a mail sends the buyer to see the order: a shopper to their account's page; a guest, in the
 * confirmation, to the order's private page under a new token (the link lives only in mails), and in
 * later mails to "Find my order", so that each mail does not void the confirmation's link.
 */
async function orderLinkFor(event: OrderMailEvent, order: OrderMailRow, transaction: Transaction) {
  const appUrl = getConfig().appUrl;
  if (!order.guest) return `${appUrl}/shop/account/orders/${order.id}`;
  const token = event === "confirmed" ? await issueGuestOrderToken(order.id, transaction) : null;
  return `${appUrl}${token ? guestOrderPath(token) : FIND_GUEST_ORDER_PATH}`;
}

async function enqueueOrderMail(
  event: OrderMailEvent,
  order: OrderMailRow,
  items: OrderMailData["items"],
  transaction: Transaction,
): Promise<boolean> {
  const data: OrderMailData = {
    orderId: order.id,
    userName: order.guest ? null : order.userName,
    items,
    totalAmount: order.totalAmount,
    money: {
      subtotal: order.subtotal,
      shippingAmount: order.shippingAmount,
      discountAmount: order.discountAmount,
      shippingMethodName: order.shippingMethodName,
      taxAmount: order.taxAmount,
      pricesIncludeTax: order.pricesIncludeTax,
      discountCode: order.discountCode,
    },
    address: order.addressInfo,
    orderLink: await orderLinkFor(event, order, transaction),
    tracking: order.trackingNumber || order.carrier ? trackingOf(order) : null,
  };
  return enqueueMail(
    {
      kind: KIND_OF[event],
      to: order.email,
      // One "on its way" per order; one tracking mail per number it is given.
      dedupeKey:
        event === "tracking"
          ? `order:${order.id}:tracking:${order.trackingNumber}`
          : `order:${order.id}:${event}`,
      ...orderMailFor(event, data),
    },
    transaction,
  );
}

/** "Your order is confirmed": items, quantities, prices, total, delivery address, a link to the order. */
export async function enqueueOrderConfirmedMail(orderId: string, transaction: Transaction): Promise<boolean> {
  const { order, items } = await loadOrder(orderId, transaction);
  return enqueueOrderMail("confirmed", order, items, transaction);
}

/** Which mail an order's current state calls for, if any. */
function statusMailEvent(orderStatus: OrderStatus, paymentStatus: PaymentStatus): OrderMailEvent | null {
  if (orderStatus === "inShipping" || orderStatus === "delivered") return orderStatus;
  if (orderStatus === "rejected") return paymentStatus === "refunded" ? "refunded" : "rejected";
  return null;
}

/**
 * A tracking number given to a parcel that had already shipped (its "on its
 * way" mail went without it): the shopper gets the number in a mail of its
 * own, once per number. Returns whether a mail was enqueued.
 */
export async function enqueueTrackingMail(orderId: string, transaction: Transaction): Promise<boolean> {
  const { order, items } = await loadOrder(orderId, transaction);
  if (!order.trackingNumber) return false;
  return enqueueOrderMail("tracking", order, items, transaction);
}

/**
 * After a status change: mails "on its way" (inShipping), "delivered",
 * "cancelled" (rejected) or "refunded" (rejected with the payment refunded);
 * other states mail nothing. Returns whether a mail was enqueued.
 */
export async function enqueueOrderStatusMail(orderId: string, transaction: Transaction): Promise<boolean> {
  const { order, items } = await loadOrder(orderId, transaction);
  const event = statusMailEvent(order.orderStatus, order.paymentStatus);
  if (!event) return false;
  return enqueueOrderMail(event, order, items, transaction);
}

const RETURN_KIND_OF: Record<ReturnType, Partial<Record<ReturnMailEvent, MailKind>>> = {
  refund: {
    requested: "return-requested",
    approved: "return-approved",
    rejected: "return-rejected",
    refunded: "return-refunded",
  },
  exchange: {
    requested: "exchange-requested",
    approved: "exchange-approved",
    rejected: "exchange-rejected",
    received: "exchange-received",
    shipped: "exchange-shipped",
  },
};

/**
 * A return's mail (requested, approved, rejected, refunded; an exchange's received and shipped), once per
 * return and event, in the transaction of the change (returns.server.ts).
 */
export async function enqueueReturnMail(
  event: ReturnMailEvent,
  to: string,
  data: Omit<ReturnMailData, "orderLink"> & { guest: boolean },
  transaction: Transaction,
): Promise<boolean> {
  const kind = RETURN_KIND_OF[data.type][event];
  if (!kind) throw new Error(`A ${data.type} return has no "${event}" mail`);
  const { guest, ...mail } = data;
  return enqueueMail(
    {
      kind,
      to,
      dedupeKey: `return:${mail.returnId}:${event}`,
      ...returnMailFor(event, {
        ...mail,
        orderLink: `${getConfig().appUrl}${guest ? FIND_GUEST_ORDER_PATH : `/shop/account/orders/${data.orderId}`}`,
      }),
    },
    transaction,
  );
}
