import { z } from "zod";
import { apiRoute, apiOperation } from "~/web/api.server";
import { receivePaymentWebhook } from "~/web/payment-webhook.server";

// POST → PayPal's (or the simulator's) signed event: 200 acted on (or already), 400 unsigned or badly signed.
const route = apiRoute({
  POST: apiOperation({
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
    errors: { 400: "Unsigned, badly signed or malformed: nothing changed" },
    handler: ({ request }) => receivePaymentWebhook(request),
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
