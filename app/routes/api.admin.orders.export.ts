import { z } from "zod";
import { adminOrderExportQuerySchema } from "~/web/openapi/schemas.server";
import { csvResponse, csvStream } from "~/lib/server/csv.server";
import { apiRoute, apiOperation } from "~/web/api.server";

import { centsToDecimal, toCents } from "~/lib/shared/money";
import { exportOrderLines, type OrderExportLine } from "~/services/order-export.server";
import { parseOrderSearchStrictly } from "~/services/order-search.server";

/**
 * GET with the admin list's filters (q, status, paymentStatus, from, to) →
 * text/csv, one row per order line of every matching order (all pages),
 * newest order first. Streamed while the orders are read in batches.
 */

const ORDER_EXPORT_COLUMNS: { header: string; value: (line: OrderExportLine) => string | number | null }[] = [
  { header: "orderId", value: ({ order }) => order._id },
  { header: "createdAt", value: ({ order }) => order.orderDate },
  { header: "customerEmail", value: ({ order }) => order.email },
  { header: "customerName", value: ({ order }) => order.userName },
  // A guest's order has no account (userId empty) and the email given at checkout.
  { header: "userId", value: ({ order }) => order.userId },
  { header: "guestEmail", value: ({ order }) => order.guestEmail },
  { header: "orderStatus", value: ({ order }) => order.orderStatus },
  { header: "paymentStatus", value: ({ order }) => order.paymentStatus },
  { header: "title", value: ({ item }) => item?.title ?? null },
  { header: "sku", value: ({ item }) => item?.sku ?? null },
  { header: "size", value: ({ item }) => item?.size ?? null },
  { header: "colour", value: ({ item }) => item?.colour ?? null },
  { header: "quantity", value: ({ item }) => item?.quantity ?? null },
  { header: "unitPrice", value: ({ item }) => (item ? centsToDecimal(toCents(item.price)) : null) },
  {
    header: "lineTotal",
    value: ({ item }) => (item ? centsToDecimal(toCents(item.price) * item.quantity) : null),
  },
  // The line's share of the order's discount, and the order's money parts (lib/shared/order-money.ts).
  {
    header: "lineDiscount",
    value: ({ item }) => (item ? centsToDecimal(toCents(item.discountAmount)) : null),
  },
  // The line's tax (all rates), and the order's.
  { header: "taxAmount", value: ({ item }) => (item ? centsToDecimal(toCents(item.taxAmount)) : null) },
  { header: "orderSubtotal", value: ({ order }) => centsToDecimal(toCents(order.subtotal)) },
  { header: "orderDiscount", value: ({ order }) => centsToDecimal(toCents(order.discountAmount)) },
  { header: "discountCode", value: ({ order }) => order.discountCode },
  { header: "shippingMethod", value: ({ order }) => order.shippingMethod?.name ?? null },
  { header: "orderShipping", value: ({ order }) => centsToDecimal(toCents(order.shippingAmount)) },
  { header: "orderTax", value: ({ order }) => centsToDecimal(toCents(order.taxAmount)) },
  { header: "orderTotal", value: ({ order }) => centsToDecimal(toCents(order.totalAmount)) },
  { header: "carrier", value: ({ order }) => order.carrier },
  { header: "trackingNumber", value: ({ order }) => order.trackingNumber },
  // A gift card line: whom the card is for (its title is the gift card's, its quantity 1).
  { header: "giftCardRecipient", value: ({ giftCard }) => giftCard?.recipientEmail ?? null },
];

const route = apiRoute({
  GET: apiOperation({
    tag: "Admin",
    summary: "The matching orders as CSV: one row per order line, every page, newest order first",
    description:
      "Columns: orderId, createdAt, customerEmail, customerName, userId, guestEmail (a guest's order: userId empty), orderStatus, paymentStatus, title, sku, size, colour, quantity, unitPrice, lineTotal, lineDiscount, taxAmount, orderSubtotal, orderDiscount, discountCode, shippingMethod, orderShipping, orderTax, orderTotal, carrier, trackingNumber, giftCardRecipient (a gift card the order buys is a line of its own, titled as one). UTF-8 with a byte-order mark; a cell a spreadsheet would run as a formula starts with an apostrophe.",
    access: "orders",
    query: adminOrderExportQuerySchema,
    produces: "text/csv",
    success: { 200: { description: "A CSV file (streamed)", schema: z.string() } },
    errors: { 400: "A malformed status, payment status or date, from after to, or q too long" },
    handler: async ({ request }) => {
      const search = parseOrderSearchStrictly(new URL(request.url).searchParams);
      const day = new Date().toISOString().slice(0, 10);
      return csvResponse(csvStream(ORDER_EXPORT_COLUMNS, exportOrderLines(search)), `orders-${day}.csv`);
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
