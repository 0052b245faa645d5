import { data } from "react-router";
import { getConfig } from "~/lib/server/config.server";
import { isAppError, type AppError } from "~/lib/server/errors.server";
import { isCaptured } from "~/lib/shared/order-options";
import type { ReturnJson } from "~/lib/shared/returns";
import { trackingUrl } from "~/lib/shared/tracking";
import { EXCHANGE_TEXT, exchangeChoices } from "~/services/exchange-request.server";
import type { OrderJson } from "~/services/orders.server";
import { listReturnableReplacements, type ReturnableReplacement } from "~/services/returns.server";
import {
  EXCHANGE_INTENT,
  EXCHANGE_PARAM,
  orderLineKey,
  replacementKey,
  RETURN_INTENT,
  returnFieldName,
  type OrderReturnData,
  type OrderReturnsPageData,
  type ReturnFormLine,
  type ReturnFormReply,
} from "~/lib/shared/order-return-form";
import { redirectWithFlash } from "./session.server";

/**
 * What an order's page shows and takes of returns and exchanges, for the shopper's order page and a guest's
 * (`/shop/orders/{token}`): the window, the returns and exchanges as the page lists them, the "Return items"
 * form's lines (the order's, then the replacements that shipped exchanges sent), the exchange form its URL
 * opens, and the two forms' requests as the services' items (return-request.server.ts and
 * exchange-request.server.ts decide; the pages only ask). Each page says who asks.
 */

export const ORDER_RETURNS_PAGE_TEXT = {
  returnRequested: "Return requested: we emailed you what happens next",
  chooseReason: "Choose why you return it",
  unknownForm: "This form cannot be sent here. Please reload the page.",
} as const;

/** A day as the shopper reads it ("24 December 2026"), in the shop's time zone. */
export function longDate(iso: string): string {
  return new Intl.DateTimeFormat("en-GB", {
    day: "numeric",
    month: "long",
    year: "numeric",
    timeZone: getConfig().shopTimeZone,
  }).format(new Date(iso));
}

/** The "Return items" form's lines: the order's, by position, then each replacement an exchange sent. */
export function returnFormLinesOf(order: OrderJson, replacements: ReturnableReplacement[]): ReturnFormLine[] {
  return [
    ...order.cartItems.map((line, index) => ({
      key: orderLineKey(index),
      variantId: line.variantId,
      productId: line.productId,
      title: line.title,
      size: line.size,
      colour: line.colour,
      left: line.variantId || line.productId ? line.quantity - line.returnedQuantity : 0,
      replacement: false,
    })),
    ...replacements.map((sent) => ({
      key: replacementKey(sent.variantId),
      variantId: sent.variantId,
      productId: sent.productId,
      title: sent.title,
      size: sent.size,
      colour: sent.colour,
      left: sent.left,
      replacement: true,
    })),
  ];
}

/** Whether the order takes a return now, or why not (shown only for a delivered order). */
export function returnWindowOf(
  order: OrderJson,
  lines: ReturnFormLine[],
): OrderReturnsPageData["returnWindow"] {
  if (order.orderStatus !== "delivered" || !order.returnableUntil) return { open: false, closed: null };
  const until = longDate(order.returnableUntil);
  if (new Date(order.returnableUntil).getTime() <= Date.now()) {
    const closed =
      getConfig().returnWindowDays === 0
        ? "This shop does not take returns."
        : `The return window of this order closed on ${until}.`;
    return { open: false, closed };
  }
  // Fully refunded (say, rejected after delivery) or every unit already in a return: nothing to ask for.
  if (!isCaptured(order.paymentStatus) || !lines.some((line) => line.left > 0))
    return { open: false, closed: null };
  return { open: true, until };
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

async function replacementsOf(order: OrderJson): Promise<ReturnableReplacement[]> {
  // Only a delivered order's exchanges can have shipped anything.
  return order.orderStatus === "delivered" ? listReturnableReplacements(order._id) : [];
}

/**
 * The page's returns and exchanges for its loader: `order` and `returns` as the page read them, `viewerId`
 * the signed-in shopper whose back-in-stock alerts the exchange form shows (null: a visitor without one).
 */
export async function orderReturnsPageData(
  request: Request,
  order: OrderJson,
  returns: ReturnJson[],
  viewerId: string | null,
): Promise<OrderReturnsPageData> {
  const returnLines = returnFormLinesOf(order, await replacementsOf(order));
  const returnWindow = returnWindowOf(order, returnLines);
  // The lines that take an exchange now (a replacement is never exchanged again), and the one the URL opens.
  const exchangeable = returnWindow.open
    ? order.cartItems.flatMap((line, index) =>
        line.variantId && line.productId && line.quantity > line.returnedQuantity ? [index] : [],
      )
    : [];
  const asked = Number(new URL(request.url).searchParams.get(EXCHANGE_PARAM) ?? NaN);
  const openLine = exchangeable.includes(asked) ? order.cartItems[asked]! : null;
  const exchange = openLine
    ? {
        lineIndex: asked,
        left: openLine.quantity - openLine.returnedQuantity,
        productId: openLine.productId!,
        ...(await exchangeChoices(viewerId, openLine.productId!, openLine.variantId!)),
      }
    : null;
  return { returns: orderReturnsOf(returns), returnWindow, returnLines, exchangeable, exchange };
}

/**
 * The form's lines as the return service's items: each line whose quantity is filled in and not 0.
 * `lineOf[n]` is the form line's key of item n, to put the service's `items.n.*` errors back next to it.
 */
export function returnRequestOf(lines: ReturnFormLine[], formData: FormData) {
  const values: Record<string, string> = {};
  const items: { variantId: string | null; productId: string | null; quantity: string; reason: string }[] =
    [];
  const lineOf: string[] = [];
  for (const line of lines) {
    const quantity = String(formData.get(returnFieldName(line.key, "quantity")) ?? "").trim();
    const reason = String(formData.get(returnFieldName(line.key, "reason")) ?? "");
    values[returnFieldName(line.key, "quantity")] = quantity;
    values[returnFieldName(line.key, "reason")] = reason;
    if (quantity === "" || quantity === "0") continue;
    items.push({ variantId: line.variantId, productId: line.productId, quantity, reason });
    lineOf.push(line.key);
  }
  return { items, values, lineOf };
}

/** The service's refusal of a return, put next to the form's lines (or above them). */
export function returnFormReply(
  error: AppError,
  values: Record<string, string>,
  lineOf: string[],
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
    fieldErrors[returnFieldName(line, field)] =
      field === "reason" ? [ORDER_RETURNS_PAGE_TEXT.chooseReason] : messages;
  }
  if (!Object.keys(fieldErrors).length) formError ??= error.message;
  return { values, fieldErrors, formError };
}

/** The exchange form's fields as the exchange service's one item: the line by its position, the new variant, how many, why. */
export function exchangeRequestOf(order: OrderJson, formData: FormData) {
  const field = (name: string) => String(formData.get(name) ?? "").trim();
  const values = {
    quantity: field("quantity"),
    reason: field("reason"),
    newVariantId: field("newVariantId"),
  };
  const line = /^\d+$/.test(field("line")) ? order.cartItems[Number(field("line"))] : undefined;
  return {
    item: {
      variantId: line?.variantId ?? null,
      quantity: values.quantity,
      newVariantId: values.newVariantId,
      reason: values.reason,
    },
    values,
  };
}

/** The service's refusal of an exchange, put next to the form's fields (or above them). */
export function exchangeFormReply(error: AppError, values: Record<string, string>): ReturnFormReply {
  const fieldErrors: Record<string, string[]> = {};
  let formError: string | null = null;
  for (const [key, messages] of Object.entries(error.fieldErrors ?? {})) {
    const field = /^items\.0\.(quantity|reason|newVariantId)$/.exec(key)?.[1];
    if (!field) formError ??= messages[0] ?? error.message;
    // The API's message lists the reasons' codes; the page's select shows their labels.
    else fieldErrors[field] = field === "reason" ? [ORDER_RETURNS_PAGE_TEXT.chooseReason] : messages;
  }
  if (!Object.keys(fieldErrors).length) formError ??= error.message;
  return { values, fieldErrors, formError };
}

type RequestItems = { items: Record<string, unknown>[] };

interface OrderReturnsActionOptions {
  order: OrderJson;
  /** The page's own path, where both forms come back. */
  here: string;
  /** The services' requests for the page's asker (the shopper's account, or a guest's link). */
  askReturn: (body: RequestItems) => Promise<unknown>;
  askExchange: (body: RequestItems) => Promise<unknown>;
  /** Headers of the form's refusal (a guest's page keeps its private ones). */
  headers?: Record<string, string>;
}

export function isOrderReturnsIntent(intent: unknown): boolean {
  return intent === RETURN_INTENT || intent === EXCHANGE_INTENT;
}

/**
 * The "Return items" and "Exchange for another size" forms' action: asks the service and comes back to the
 * page with a flash message. A request the shopper can correct (or a size gone meanwhile) is answered on its
 * form with what was sent and its status; any other refusal (a closed window, an order not theirs) is
 * thrown on, for the page to answer as it answers every refusal.
 */
export async function orderReturnsAction(
  request: Request,
  formData: FormData,
  options: OrderReturnsActionOptions,
) {
  const { order, here, headers } = options;
  const onForm = <T>(reply: T, error: AppError) =>
    data(reply, { status: error.status, ...(headers ? { headers } : {}) });
  if (formData.get("intent") === EXCHANGE_INTENT) {
    const { item, values } = exchangeRequestOf(order, formData);
    try {
      await options.askExchange({ items: [item] });
    } catch (error) {
      const soldOut = isAppError(error) && error.status === 409 && error.message === EXCHANGE_TEXT.soldOut;
      if (!isAppError(error) || (error.status !== 400 && !soldOut)) throw error;
      return onForm({ exchangeForm: exchangeFormReply(error, values) }, error);
    }
    return redirectWithFlash(request, here, { type: "success", message: EXCHANGE_TEXT.requested });
  }
  const { items, values, lineOf } = returnRequestOf(
    returnFormLinesOf(order, await replacementsOf(order)),
    formData,
  );
  try {
    await options.askReturn({ items });
  } catch (error) {
    if (!isAppError(error) || error.status !== 400) throw error;
    return onForm({ returnForm: returnFormReply(error, values, lineOf) }, error);
  }
  return redirectWithFlash(request, here, {
    type: "success",
    message: ORDER_RETURNS_PAGE_TEXT.returnRequested,
  });
}
