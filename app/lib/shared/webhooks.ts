import { z } from "zod";

/**
 * Outgoing webhooks as the admin page and the API see them (API.md,
 * "Webhooks"): the event types, what an endpoint is, and the one schema that
 * checks what an admin sends, as JSON or as a form. Safe in the browser.
 */

export const WEBHOOK_EVENT_TYPES = [
  "order.created",
  "order.paid",
  "order.status_changed",
  "order.refunded",
  "return.requested",
  "return.received",
  "exchange.shipped",
  "product.created",
  "product.updated",
  "product.deleted",
  "stock.low",
  "stock.back_in_stock",
  /** An account erased on its owner's request (`data: { id }`): forget what you keep about it. */
  "customer.deleted",
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export const WEBHOOK_EVENT_LABELS: Record<WebhookEventType, string> = {
  "order.created": "Order placed",
  "order.paid": "Order paid",
  "order.status_changed": "Order status changed",
  "order.refunded": "Order refunded",
  "return.requested": "Return requested",
  "return.received": "Return received",
  "exchange.shipped": "Exchange shipped",
  "product.created": "Product created",
  "product.updated": "Product updated",
  "product.deleted": "Product deleted",
  "stock.low": "Stock low",
  "stock.back_in_stock": "Back in stock",
  "customer.deleted": "Customer deleted",
};

/** Failures in a row after which an endpoint is switched off. */
export const WEBHOOK_MAX_CONSECUTIVE_FAILURES = 20;
/** A delivery that has no 2xx answer within this long has failed. */
export const WEBHOOK_TIMEOUT_MS = 10_000;
export const WEBHOOK_URL_MAX_LENGTH = 2000;

export interface WebhookEndpointJson {
  _id: string;
  url: string;
  events: WebhookEventType[];
  active: boolean;
  /** Why the shop switched it off (null while active or switched off by an admin). */
  disabledReason: string | null;
  createdAt: string;
}

/** One attempt of the delivery log. */
export interface WebhookAttemptJson {
  _id: string;
  deliveryId: string;
  eventId: string;
  type: string;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  at: string;
  /** The delivery's state now: pending (a retry is due), delivered or failed (no more retries). */
  deliveryStatus: "pending" | "delivered" | "failed";
}

export const WEBHOOK_TEXT = {
  created: "Webhook endpoint added: copy its signing secret now, it is shown only once",
  updated: "Webhook endpoint saved",
  deleted: "Webhook endpoint deleted",
  notFound: "Webhook endpoint not found",
  deliveryNotFound: "Delivery not found",
  retried: "The event is sent again",
  urlInvalid: "Enter an absolute URL such as https://example.com/hooks",
  urlHttps: "The URL must start with https://",
  eventsRequired: "Choose at least one event",
} as const;

const blankToUndefined = (value: unknown) =>
  value === null || value === undefined || (typeof value === "string" && value.trim() === "")
    ? undefined
    : value;

/** A form's "true"/"on" and JSON's true alike. */
const flag = z.preprocess(
  (value) => (value === "true" || value === "on" ? true : value === "false" ? false : value),
  z.boolean({ error: "active must be true or false" }),
);

export const webhookEndpointSchema = z.object({
  url: z
    .preprocess(
      blankToUndefined,
      z
        .string({ error: WEBHOOK_TEXT.urlInvalid })
        .trim()
        .max(WEBHOOK_URL_MAX_LENGTH, "The URL is too long")
        .refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), {
          message: WEBHOOK_TEXT.urlInvalid,
        }),
    )
    .meta({ format: "uri", description: "https:// (http:// with WEBHOOK_ALLOW_HTTP)" }),
  events: z
    .array(z.enum(WEBHOOK_EVENT_TYPES, { error: (issue) => `Unknown event ${String(issue.input)}` }), {
      error: WEBHOOK_TEXT.eventsRequired,
    })
    .min(1, WEBHOOK_TEXT.eventsRequired)
    .transform((events) => WEBHOOK_EVENT_TYPES.filter((type) => events.includes(type))),
  active: flag.default(true).meta({ description: "Default: true" }),
});
export type WebhookEndpointInput = z.infer<typeof webhookEndpointSchema>;
