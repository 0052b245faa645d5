import { returnEnvelope } from "~/web/openapi/answers.server";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";
import { requestGuestReturn } from "~/services/guest-orders.server";
import { returnRequestBody } from "./api.shop.order.return";
import { GUEST_ORDER_HEADERS } from "~/web/guest-order-headers.server";

const guestReturnBody = returnRequestBody.omit({ userId: true, orderId: true });

/**
 * POST { items: [{ variantId, quantity, reason }] } → 201 the return, `requested`: the shopper's return
 * (POST /api/shop/order/return) for the order behind the token, with its rules.
 */
const route = apiRoute({
  POST: apiOperation({
    tag: "Returns",
    summary: "Ask to return lines of a guest's delivered order",
    description:
      "The order is the one behind the token of its private link; the rules are the shopper's return's: delivered, within RETURN_WINDOW_DAYS, never more of a line than is left.",
    access: "public",
    body: guestReturnBody,
    success: { 201: { description: "The return, requested", schema: returnEnvelope } },
    errors: {
      400: "Invalid fields (`errors` names them), or malformed JSON; an item the order does not have, or more than is left to return",
      404: "Unknown (or replaced) token",
      409: "The order is not delivered, not paid, or its return window closed",
    },
    handler: async ({ params, input }) => {
      const created = await requestGuestReturn(params.token, input);
      return apiJson(
        { success: true, message: "Return requested: we will email you how to send it back", data: created },
        { status: 201, headers: GUEST_ORDER_HEADERS },
      );
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
