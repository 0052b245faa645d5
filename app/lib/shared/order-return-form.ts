import type { ReturnReason, ReturnStatus, ReturnType } from "./returns";

/**
 * The "Return items" form of an order's page (the shopper's and a guest's): its field names and what the
 * pages' actions and the form (app/components/OrderReturns.tsx) exchange. Safe in the browser.
 */

export const RETURN_INTENT = "return";

/** The form's field names for the order's line at `index` (its position in the order's lines). */
export const returnFieldName = (index: number, field: "quantity" | "reason") => `line-${index}-${field}`;

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

/** What the page's action answers when it refuses a request: the values sent, and why. */
export interface ReturnFormReply {
  values: Record<string, string>;
  fieldErrors: Record<string, string[]>;
  formError: string | null;
}
