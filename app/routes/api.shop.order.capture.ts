import { apiJson, apiRoute, readJsonObject } from "~/web/api.server";
import { requireApiShopper } from "~/web/auth.server";
import { captureOrderPayment, CHECKOUT_TEXT, CheckoutError } from "~/services/checkout.server";

/**
 * POST { paymentId, payerId, orderId } → 200 and the confirmed order. A
 * repeated capture of a paid order answers the same success (nothing is
 * charged twice). A pending capture, or another request's capture of this
 * order still in flight after a 10 s wait, answers 202 with `pending: true`.
 * Refusals: 402 declined and 409 not approved (both with `approvalURL`, where
 * the shopper chooses another way to pay), 409 out of stock / refunded /
 * cancelled, 404 unknown order, 502 the payment provider failed.
 */
const route = apiRoute({
  POST: async ({ request }) => {
    await requireApiShopper(request);
    const body = await readJsonObject(request);
    const user = await requireApiShopper(request, body.userId);
    try {
      const outcome = await captureOrderPayment(user, {
        orderId: body.orderId,
        paymentId: body.paymentId,
        payerId: body.payerId,
      });
      if (outcome.status === "pending") {
        return apiJson(
          { success: false, pending: true, message: CHECKOUT_TEXT.pending, data: outcome.order },
          { status: 202 },
        );
      }
      return apiJson({
        success: true,
        message: CHECKOUT_TEXT.confirmed,
        alreadyCaptured: outcome.alreadyPaid,
        data: outcome.order,
      });
    } catch (error) {
      if (!(error instanceof CheckoutError)) throw error;
      return apiJson(
        {
          success: false,
          message: error.message,
          reason: error.reason,
          orderId: error.orderId,
          ...(error.approvalURL ? { approvalURL: error.approvalURL } : {}),
        },
        { status: error.status },
      );
    }
  },
});
export const loader = route.loader;
export const action = route.action;
