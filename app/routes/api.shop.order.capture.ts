import { captureBodySchema } from "~/services/checkout/capture.server";
import { z } from "zod";
import { orderSchema, uuid } from "~/web/openapi/schemas.server";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";
import { apiBuyerOf } from "~/web/checkout-buyer.server";
import { GUEST_USER_ID } from "~/services/cart-owner.server";
import { captureOrderPayment, CHECKOUT_TEXT, CheckoutError } from "~/services/checkout.server";

const captureSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  alreadyCaptured: z.boolean().meta({ description: "true when an earlier call had captured it already" }),
  data: orderSchema,
});

const capturePendingSchema = z.object({
  success: z.literal(false),
  pending: z.literal(true),
  message: z.string(),
  data: orderSchema,
});

const captureRefusalSchema = z.object({
  success: z.literal(false),
  message: z.string(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
  reason: z.string().optional().meta({ description: "declined, notApproved, outOfStock, …" }),
  orderId: z.string().nullable().optional(),
  approvalURL: z.string().optional().meta({ description: "Where the shopper may choose another way to pay" }),
});

/** The body the capture validates (checkout/capture.server.ts), with the order id it checks apart. */
const orderCaptureBodySchema = captureBodySchema.extend({
  userId: z
    .union([uuid, z.literal(GUEST_USER_ID)])
    .optional()
    .meta({
      description: 'The caller\'s own id, or "guest" (with the guest_cart cookie the order was bought from)',
    }),
  orderId: uuid.meta({ description: "Our order id, from create" }),
});

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
  POST: apiOperation({
    tag: "Orders",
    summary: "Capture the approved payment (idempotent)",
    access: "cart",
    body: orderCaptureBodySchema,
    parsedBy: "service",
    success: {
      200: { description: "Paid and confirmed (or captured before)", schema: captureSchema },
      202: { description: "The provider has not settled the capture yet", schema: capturePendingSchema },
    },
    errors: {
      400: "Malformed JSON, or invalid fields (`errors` names them)",
      402: "Declined: choose another way to pay at approvalURL",
      401: "Not signed in, and guest checkout is off (or a visitor named an account)",
      403: "Signed in as an admin, or the `userId` is not the caller's",
      404: "Unknown order or payment",
      409: "Not approved, out of stock, refunded or cancelled",
      502: "The payment provider failed",
    },
    refusals: { statuses: [402, 404, 409], schema: captureRefusalSchema },
    handler: async ({ request, caller, input }) => {
      const body = input;
      // A guest's order is captured only with the guest_cart cookie of the cart it was bought from (404 otherwise).
      const buyer = await apiBuyerOf(request, caller, body.userId);
      try {
        const outcome = await captureOrderPayment(buyer, {
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
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
