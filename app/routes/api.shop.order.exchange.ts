import { RETURN_REASONS } from "~/lib/shared/returns";
import { z } from "zod";
import { returnEnvelope } from "~/web/openapi/answers.server";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";
import { requireOwnData } from "~/web/auth.server";
import { EXCHANGE_TEXT, requestExchange } from "~/services/exchange-request.server";

export const exchangeRequestBody = z.object({
  userId: z.string().optional().meta({ description: "The caller's id (optional)" }),
  orderId: z.string().meta({ format: "uuid" }),
  items: z
    .array(
      z.object({
        variantId: z
          .string()
          .meta({ format: "uuid", description: "The line's variantId, as the order lists it" }),
        // The service judges the count, the new variant and the reason with its own messages.
        quantity: z.number().meta({ type: "integer", minimum: 1 }),
        newVariantId: z
          .string()
          .meta({ format: "uuid", description: "Another size or colour of the same product, in stock" }),
        reason: z.string().meta({ enum: [...RETURN_REASONS] }),
      }),
    )
    .meta({ minItems: 1 }),
});

/**
 * POST { userId?, orderId, items: [{ variantId, quantity, newVariantId, reason }] } → 201 the return,
 * `type: "exchange"`, requested, its new units held. No money moves.
 */
const route = apiRoute({
  POST: apiOperation({
    tag: "Returns",
    summary: "Exchange lines of a delivered order for another size or colour",
    description:
      "The caller's delivered orders within RETURN_WINDOW_DAYS; never more of a line than was bought less what returns and exchanges hold. The new units are taken from stock at once. Nothing is charged or refunded.",
    access: "shopper",
    body: exchangeRequestBody,
    success: { 201: { description: "The exchange, requested", schema: returnEnvelope } },
    errors: {
      400: "Invalid fields (`errors` names them), or malformed JSON; an item the order does not have, more than is left of it, or a new variant of another product",
      403: "Another shopper's userId, or an admin",
      404: "Not the caller's order",
      409: `The order is not delivered, not paid, or its return window closed; or "${EXCHANGE_TEXT.soldOut}"`,
    },
    handler: async ({ caller, input }) => {
      const user = requireOwnData(caller, input.userId);
      const created = await requestExchange({ userId: user.id }, input);
      return apiJson({ success: true, message: EXCHANGE_TEXT.requested, data: created }, { status: 201 });
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
