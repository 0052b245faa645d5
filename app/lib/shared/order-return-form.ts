import type { ReturnReason, ReturnStatus, ReturnType } from "./returns";

/**
 * The return and exchange forms of an order's page (the shopper's and a guest's): their field names and
 * what the pages' loaders and actions (app/web/order-returns-page.server.ts) and the forms
 * (app/components/OrderReturns.tsx, ExchangeForm.tsx, OrderDetailsWithReturns.tsx) exchange. Safe in the browser.
 */

export const RETURN_INTENT = "return";
export const EXCHANGE_INTENT = "exchange";
/** The search parameter naming the line whose exchange form is open (its position in the order). */
export const EXCHANGE_PARAM = "exchange";

/** The key of an order line in the "Return items" form: its position in the order's lines. */
export const orderLineKey = (index: number) => `line-${index}`;
/** The key of a replacement in the form: the variant an exchange sent (positions would shift as exchanges ship). */
export const replacementKey = (variantId: string) => `sent-${variantId}`;
/** A form line's field names. */
export const returnFieldName = (key: string, field: "quantity" | "reason") => `${key}-${field}`;

/**
 * A line of the "Return items" form: one of the order's lines, or a replacement (units of another size or
 * colour that a shipped exchange sent in place of the line's own, returned for what the line cost).
 */
export interface ReturnFormLine {
  key: string;
  /** What the return service's item names: the line's variant (or product), or the replacement's variant. */
  variantId: string | null;
  productId: string | null;
  title: string;
  size: string | null;
  colour: string | null;
  /** Units that may still be returned: 0 for a line used up, or one that names no product any more. */
  left: number;
  replacement: boolean;
}

export interface OrderReturnData {
  _id: string;
  type: ReturnType;
  status: ReturnStatus;
  /** An exchange's replacement parcel, once shipped. */
  tracking: { carrier: string | null; number: string; url: string | null } | null;
  /** The day it was asked for, as the shopper reads it. */
  requestedOn: string;
  refundAmount: number | null;
  items: {
    title: string;
    size: string | null;
    colour: string | null;
    quantity: number;
    reason: ReturnReason;
    refundAmount: number | null;
    /** An exchange's item: the size and colour sent instead. */
    newSize?: string | null;
    newColour?: string | null;
  }[];
}

/** A size or colour an exchange may ask for instead, with its stock (a sold-out one is shown as such). */
export interface ExchangeChoice {
  _id: string;
  size: string | null;
  colour: string | null;
  totalStock: number;
}

/** The exchange form the page's URL opens (`?exchange=<line>`). */
export interface OpenExchange {
  lineIndex: number;
  /** Units of the line that may still be exchanged. */
  left: number;
  productId: string;
  choices: ExchangeChoice[];
  /** The sizes the viewer already waits for (none for a visitor without an account). */
  waitingVariantIds: string[];
}

/** What an order's page shows and offers of returns and exchanges. */
export interface OrderReturnsPageData {
  returns: OrderReturnData[];
  returnWindow: { open: true; until: string } | { open: false; closed: string | null };
  returnLines: ReturnFormLine[];
  /** The order's lines (by position) that take an exchange now. */
  exchangeable: number[];
  exchange: OpenExchange | null;
}

/** What the page's action answers when it refuses a return or an exchange: the values sent, and why. */
export interface ReturnFormReply {
  values: Record<string, string>;
  fieldErrors: Record<string, string[]>;
  formError: string | null;
}

/** The action's reply for one of the forms, out of whatever the page's action answered. */
export function formReplyOf(
  actionData: unknown,
  form: "returnForm" | "exchangeForm",
): ReturnFormReply | null {
  if (!actionData || typeof actionData !== "object" || !(form in actionData)) return null;
  return (actionData as Record<typeof form, ReturnFormReply>)[form];
}
