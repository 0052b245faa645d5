import { returnEnvelope } from "~/web/openapi/answers.server";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";
import { requestGuestExchange } from "~/services/guest-orders.server";
import { EXCHANGE_TEXT } from "~/services/exchange-request.server";
import { exchangeRequestBody } from "./api.shop.order.exchange";
import { GUEST_ORDER_HEADERS } from "~/web/guest-order-headers.server";

const guestExchangeBody = exchangeRequestBody.omit({ userId: true, orderId: true });

/**
 * POST { items: [{ variantId, quantity, newVariantId, reason }] } → 201 the return, `type: "exchange"`: the
 * shopper's exchange (POST /api/shop/order/exchange) for the order behind the token, with its rules.
 */
const route = apiRoute({
  POST: apiOperation({
    tag: "Returns",
    summary: "Exchange lines of a guest's delivered order for another size or colour",
    description:
      "The order is the one behind the token of its private link; the rules are the shopper's exchange's. The new units are taken from stock at once; nothing is charged or refunded.",
    access: "public",
    body: guestExchangeBody,
    success: { 201: { description: "The exchange, requested", schema: returnEnvelope } },
    errors: {
      400: "Invalid fields (`errors` names them), or malformed JSON; an item the order does not have, more than is left of it, or a new variant of another product",
      404: "Unknown (or replaced) token",
      409: `The order is not delivered, not paid, or its return window closed; or "${EXCHANGE_TEXT.soldOut}"`,
    },
    handler: async ({ params, input }) => {
      const created = await requestGuestExchange(params.token, input);
      return apiJson(
        { success: true, message: EXCHANGE_TEXT.requested, data: created },
        { status: 201, headers: GUEST_ORDER_HEADERS },
      );
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
