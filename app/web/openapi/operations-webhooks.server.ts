import { z } from "zod";
import { WEBHOOK_EVENT_TYPES } from "~/lib/shared/webhooks";
import type { ApiOperation } from "./operation.server";
import { dataEnvelope, messageEnvelope } from "./schemas.server";

/** Outgoing webhooks and PayPal's incoming ones (API.md, "Webhooks"). */

const BAD_INPUT =
  "Invalid fields (`errors` names them): a URL that is not https://, resolves to a private network, or no known event";
const NOT_JSON = "The body is not JSON";

const endpointSchema = z
  .object({
    _id: z.uuid(),
    url: z.string().meta({ format: "uri" }),
    events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
    active: z.boolean(),
    disabledReason: z
      .string()
      .nullable()
      .meta({ description: "Why the shop switched it off (20 failures in a row); null otherwise" }),
    createdAt: z.string().meta({ format: "date-time" }),
  })
  .meta({ id: "WebhookEndpoint" });

const endpointBody = z.object({
  url: z
    .string()
    .max(2000)
    .meta({ format: "uri", description: "https:// (http:// with WEBHOOK_ALLOW_HTTP)" }),
  events: z.array(z.enum(WEBHOOK_EVENT_TYPES)).min(1),
  active: z.boolean().optional().meta({ default: true }),
});

const attemptSchema = z.object({
  _id: z.uuid().meta({ description: "The attempt; retry takes it or its deliveryId" }),
  deliveryId: z.uuid(),
  eventId: z.uuid().meta({ description: "The webhook-id header: the same on every attempt" }),
  type: z.enum(WEBHOOK_EVENT_TYPES),
  statusCode: z.int().nullable().meta({ description: "null: no answer (timeout, refused, unreachable)" }),
  durationMs: z.int().min(0),
  error: z.string().nullable(),
  at: z.string().meta({ format: "date-time" }),
  deliveryStatus: z.enum(["pending", "delivered", "failed"]),
});

export const WEBHOOK_OPERATIONS: ApiOperation[] = [
  {
    method: "get",
    path: "/api/admin/webhooks",
    tag: "Webhooks",
    summary: "Every webhook endpoint (without its secret)",
    access: "admin",
    success: { 200: { description: "The endpoints", schema: dataEnvelope(z.array(endpointSchema)) } },
    errors: {},
  },
  {
    method: "post",
    path: "/api/admin/webhooks",
    tag: "Webhooks",
    summary: "Add an endpoint; the answer carries its signing secret, shown this once",
    access: "admin",
    body: endpointBody,
    success: {
      201: {
        description: "The endpoint and its secret (whsec_ + base64)",
        schema: z.object({
          success: z.literal(true),
          message: z.string(),
          data: endpointSchema.extend({ secret: z.string().startsWith("whsec_") }),
        }),
      },
    },
    errors: { 400: BAD_INPUT, 415: NOT_JSON },
  },
  {
    method: "get",
    path: "/api/admin/webhooks/{id}",
    tag: "Webhooks",
    summary: "One endpoint",
    access: "admin",
    success: { 200: { description: "The endpoint", schema: dataEnvelope(endpointSchema) } },
    errors: { 404: "Unknown endpoint" },
  },
  {
    method: "put",
    path: "/api/admin/webhooks/{id}",
    tag: "Webhooks",
    summary: "Change some fields; active: true switches a switched-off endpoint on and sends what waited",
    access: "admin",
    body: endpointBody.partial(),
    success: { 200: { description: "The endpoint", schema: dataEnvelope(endpointSchema) } },
    errors: { 400: BAD_INPUT, 404: "Unknown endpoint", 415: NOT_JSON },
  },
  {
    method: "delete",
    path: "/api/admin/webhooks/{id}",
    tag: "Webhooks",
    summary: "Delete an endpoint with its delivery log",
    access: "admin",
    success: { 200: { description: "Deleted", schema: messageEnvelope } },
    errors: { 404: "Unknown endpoint" },
  },
  {
    method: "get",
    path: "/api/admin/webhooks/{id}/deliveries",
    tag: "Webhooks",
    summary: "The endpoint's delivery attempts, newest first (the last 100)",
    access: "admin",
    success: { 200: { description: "The attempts", schema: dataEnvelope(z.array(attemptSchema)) } },
    errors: { 404: "Unknown endpoint" },
  },
  {
    method: "post",
    path: "/api/admin/webhooks/{id}/deliveries/{deliveryId}/retry",
    tag: "Webhooks",
    summary: "Send a delivery's event again now, with the same webhook-id",
    access: "admin",
    success: { 202: { description: "Queued: it goes out at once", schema: messageEnvelope } },
    errors: {
      404: "Unknown endpoint or delivery",
      409: "The endpoint is switched off, or the event is being sent right now",
    },
  },
  {
    method: "post",
    path: "/api/payments/paypal/webhook",
    tag: "Webhooks",
    summary: "PayPal's webhook events (verified with PayPal, or with the simulator's key in simulator mode)",
    access: "public",
    body: z.object({ id: z.string(), event_type: z.string(), resource: z.object({}).passthrough() }),
    success: {
      200: {
        description: "Acted on, or already acted on (each event id once), or an event type the shop ignores",
        schema: z.object({ success: z.literal(true), message: z.string() }),
      },
    },
    errors: { 400: "Unsigned, badly signed or malformed: nothing changed", 415: NOT_JSON },
  },
];
