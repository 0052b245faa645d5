import { getConfig } from "~/lib/server/config.server";
import type { AppError } from "~/lib/server/errors.server";
import { isCaptured } from "~/lib/shared/order-options";
import type { ReturnJson } from "~/lib/shared/returns";
import { trackingUrl } from "~/lib/shared/tracking";
import type { OrderJson } from "~/services/orders.server";
import { returnFieldName, type OrderReturnData, type ReturnFormReply } from "~/lib/shared/order-return-form";

/**
 * What an order's page shows and takes of returns, for the shopper's order page and a guest's
 * (`/shop/orders/{token}`): the window, the returns as the page lists them, and the form's lines as the
 * return service's items (return-request.server.ts decides; the pages only ask).
 */

/** A day as the shopper reads it ("24 December 2026"), in the shop's time zone. */
export function longDate(iso: string): string {
  return new Intl.DateTimeFormat("en-GB", {
    day: "numeric",
    month: "long",
    year: "numeric",
    timeZone: getConfig().shopTimeZone,
  }).format(new Date(iso));
}

/** Whether the order takes a return now, or why not (shown only for a delivered order). */
export function returnWindowOf(order: OrderJson) {
  if (order.orderStatus !== "delivered" || !order.returnableUntil)
    return { open: false as const, closed: null };
  const until = longDate(order.returnableUntil);
  if (new Date(order.returnableUntil).getTime() <= Date.now()) {
    const closed =
      getConfig().returnWindowDays === 0
        ? "This shop does not take returns."
        : `The return window of this order closed on ${until}.`;
    return { open: false as const, closed };
  }
  const left = order.cartItems.some(
    (line) => (line.variantId || line.productId) && line.quantity > line.returnedQuantity,
  );
  // Fully refunded (say, rejected after delivery) or every unit already in a return: nothing to ask for.
  if (!isCaptured(order.paymentStatus) || !left) return { open: false as const, closed: null };
  return { open: true as const, until };
}

/** What the page shows of each return and exchange (not the buyer's own email and name again). */
export function orderReturnsOf(returns: ReturnJson[]): OrderReturnData[] {
  return returns.map((entry) => ({
    _id: entry._id,
    type: entry.type,
    status: entry.status,
    tracking: entry.trackingNumber
      ? {
          carrier: entry.carrier,
          number: entry.trackingNumber,
          url: trackingUrl(entry.carrier, entry.trackingNumber),
        }
      : null,
    requestedOn: longDate(entry.requestedAt),
    refundAmount: entry.refundAmount,
    items: entry.items.map(({ title, size, colour, quantity, reason, refundAmount, newSize, newColour }) => ({
      title,
      size,
      colour,
      quantity,
      reason,
      refundAmount,
      ...(entry.type === "exchange" ? { newSize, newColour } : {}),
    })),
  }));
}

/**
 * The form's lines as requestReturn's items: each line of the order, by its
 * position, whose quantity is filled in and not 0. `lineOf[n]` is the form's
 * line of item n, to put the service's `items.n.*` errors back next to it.
 */
export function returnRequestOf(order: OrderJson, formData: FormData) {
  const values: Record<string, string> = {};
  const items: { variantId: string | null; productId: string | null; quantity: string; reason: string }[] =
    [];
  const lineOf: number[] = [];
  order.cartItems.forEach((line, index) => {
    const quantity = String(formData.get(returnFieldName(index, "quantity")) ?? "").trim();
    const reason = String(formData.get(returnFieldName(index, "reason")) ?? "");
    values[returnFieldName(index, "quantity")] = quantity;
    values[returnFieldName(index, "reason")] = reason;
    if (quantity === "" || quantity === "0") return;
    items.push({ variantId: line.variantId, productId: line.productId, quantity, reason });
    lineOf.push(index);
  });
  return { request: { orderId: order._id, items }, values, lineOf };
}

/** The service's refusal of a request, put next to the form's lines (or above them). */
export function returnFormReply(
  error: AppError,
  values: Record<string, string>,
  lineOf: number[],
  chooseReason: string,
): ReturnFormReply {
  const fieldErrors: Record<string, string[]> = {};
  let formError: string | null = null;
  for (const [key, messages] of Object.entries(error.fieldErrors ?? {})) {
    const match = /^items\.(\d+)\.(quantity|reason|variantId|productId)$/.exec(key);
    const line = match ? lineOf[Number(match[1])] : undefined;
    if (!match || line === undefined) {
      formError ??= messages[0] ?? error.message;
      continue;
    }
    const field = match[2] === "reason" ? "reason" : "quantity";
    // The API's message lists the reasons' codes; the page's select shows their labels.
    fieldErrors[returnFieldName(line, field)] = field === "reason" ? [chooseReason] : messages;
  }
  if (!Object.keys(fieldErrors).length) formError ??= error.message;
  return { values, fieldErrors, formError };
}
