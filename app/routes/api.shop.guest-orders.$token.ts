import { orderDetailsEnvelope } from "~/web/openapi/answers.server";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";
import { getGuestOrder } from "~/services/guest-orders.server";
import { GUEST_ORDER_HEADERS } from "~/web/guest-order-headers.server";

// GET → the guest order behind the private link's token (API.md, "Open storefront and guest checkout").
const route = apiRoute({
  GET: apiOperation({
    tag: "Orders",
    summary: "A guest's order, by the token of its private link",
    description:
      "No sign-in: the token from the confirmation mail is the key. Answers `Cache-Control: private, no-store` and `Referrer-Policy: same-origin`.",
    access: "public",
    success: { 200: { description: "The order, its returns and exchanges", schema: orderDetailsEnvelope } },
    errors: { 404: "Unknown (or replaced) token" },
    handler: async ({ params }) => {
      const { order, returns } = await getGuestOrder(params.token);
      return apiJson({ success: true, data: order, returns }, { headers: GUEST_ORDER_HEADERS });
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
