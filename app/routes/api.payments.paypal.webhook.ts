import { apiRoute } from "~/web/api.server";
import { receivePaymentWebhook } from "~/web/payment-webhook.server";

// POST → PayPal's (or the simulator's) signed event: 200 acted on (or already), 400 unsigned or badly signed.
const route = apiRoute({
  POST: ({ request }) => receivePaymentWebhook(request),
});
export const loader = route.loader;
export const action = route.action;
