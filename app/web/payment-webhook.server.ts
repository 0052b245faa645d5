import { getConfig } from "~/lib/server/config.server";
import { AppError } from "~/lib/server/errors.server";
import { getLogger } from "~/lib/server/logger.server";
import { readBodyText } from "~/lib/server/request-body.server";
import { PaymentProviderUnavailableError } from "~/payments/errors.server";
import type { ProviderEventMessage } from "~/payments/simulator-dashboard.server";
import { signSimulatorWebhook, verifyPaymentWebhook } from "~/payments/webhook-verification.server";
import { handleProviderEvent } from "~/services/checkout/provider-events.server";
import { apiError, apiJson, runApiHandler } from "./api.server";

/**
 * The payment provider's webhook (POST /api/payments/paypal/webhook): the
 * body is read with its bound, its signature checked before anything in it
 * is believed (400 and nothing changes otherwise), and then acted on once per
 * event id. PayPal retries whatever is not answered 2xx, so an event the shop
 * cannot act on now (PayPal unreachable for the check) answers 503.
 */

/** A provider's events are small: a refund or a dispute is a few kilobytes. */
export const PAYMENT_WEBHOOK_BODY_LIMIT_BYTES = 64 * 1024;

export function receivePaymentWebhook(request: Request): Promise<Response> {
  return runApiHandler(async () => {
    const contentType = request.headers.get("Content-Type") ?? "";
    if (!/^application\/json\b/i.test(contentType)) {
      throw new AppError(415, "Send the body as JSON (Content-Type: application/json)");
    }
    const body = await readBodyText(request, PAYMENT_WEBHOOK_BODY_LIMIT_BYTES);
    let verified: boolean;
    try {
      verified = await verifyPaymentWebhook(request.headers, body);
    } catch (error) {
      if (error instanceof PaymentProviderUnavailableError) {
        return apiError(
          503,
          "The signature could not be checked with PayPal now: send it again later",
          undefined,
          {
            "Retry-After": "60",
          },
        );
      }
      throw error;
    }
    if (!verified) return apiError(400, "The webhook's signature is missing or wrong");
    let event: unknown;
    try {
      event = JSON.parse(body);
    } catch {
      return apiError(400, "The request body is not valid JSON");
    }
    const provider = getConfig().paypal ? "PayPal" : "Payment simulator";
    const outcome = await handleProviderEvent(event, { actor: { id: null, userName: provider }, ip: null });
    getLogger().info({ eventId: (event as { id?: unknown }).id, outcome }, "Payment webhook");
    return apiJson({ success: true, message: outcome });
  });
}

/**
 * The simulator's dashboard sends its events as PayPal would: the same JSON,
 * signed with the simulator's key, through the same route handler (and so the
 * same signature check) as any incoming webhook.
 */
export async function sendSimulatorEvent(
  event: ProviderEventMessage,
): Promise<{ status: number; message: string }> {
  const body = JSON.stringify(event);
  const request = new Request(`${getConfig().appUrl}/api/payments/paypal/webhook`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...signSimulatorWebhook(body) },
    body,
  });
  const response = await receivePaymentWebhook(request);
  const answer = (await response.json()) as { message?: string };
  return { status: response.status, message: answer.message ?? "" };
}
