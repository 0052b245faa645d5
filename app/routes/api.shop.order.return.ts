import { RETURN_REASONS } from "~/lib/shared/returns";
import { REFUND_TO } from "~/lib/shared/gift-cards";
import { z } from "zod";
import { returnEnvelope } from "~/web/openapi/answers.server";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";
import { requireOwnData } from "~/web/auth.server";
import { requestReturn } from "~/services/return-request.server";

/** The return request's body; a guest's (api.shop.guest-orders.$token.return.ts) is it without userId and orderId. */
export const returnRequestBody = z.object({
  userId: z.string().optional().meta({ description: "The caller's id (optional)" }),
  orderId: z.string().meta({ format: "uuid" }),
  items: z
    .array(
      z.object({
        variantId: z
          .string()
          .optional()
          .meta({ format: "uuid", description: "The line's variantId, as the order lists it" }),
        productId: z.string().optional().meta({
          format: "uuid",
          description: "Instead of variantId, for a line of a product without sizes",
        }),
        // The service judges the count and the reason with its own messages (return-request.server.ts).
        quantity: z.number().meta({ type: "integer", minimum: 1 }),
        reason: z.string().meta({ enum: [...RETURN_REASONS] }),
      }),
    )
    .meta({ minItems: 1 }),
  refundTo: z.enum(REFUND_TO).optional().meta({
    description:
      "original (default): back the way the order was paid; storeCredit: the caller's store credit",
  }),
});

/**
 * POST { userId?, orderId, items: [{ variantId, quantity, reason }] } → 201 the
 * return, `requested`. Only the caller's delivered orders within the return
 * window; never more of a line than was bought less what other returns hold.
 */
const route = apiRoute({
  POST: apiOperation({
    tag: "Returns",
    summary: "Ask to return lines of a delivered order",
    description:
      "Only the caller's delivered orders, within RETURN_WINDOW_DAYS of delivery, and never more of a line than was bought less what other returns hold.",
    access: "shopper",
    body: returnRequestBody,
    success: { 201: { description: "The return, requested", schema: returnEnvelope } },
    errors: {
      400: `${"Invalid fields (`errors` names them), or malformed JSON"}; an item the order does not have, or more than is left to return`,
      403: "Another shopper's userId, or an admin",
      404: "Not the caller's order",
      409: "The order is not delivered, not paid, or its return window closed",
    },
    handler: async ({ caller, input }) => {
      const body = input;
      const user = requireOwnData(caller, body.userId);
      const created = await requestReturn(user.id, body);
      return apiJson(
        { success: true, message: "Return requested: we will email you how to send it back", data: created },
        { status: 201 },
      );
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
