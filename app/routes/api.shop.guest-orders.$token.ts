import { z } from "zod";
import { orderSchema } from "~/web/openapi/schemas.server";
import { returnSchema } from "~/web/openapi/schemas.server";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";
import { getGuestOrder } from "~/services/guest-orders.server";
import { GUEST_ORDER_HEADERS } from "~/web/guest-order-headers.server";

const guestOrderEnvelope = z.object({
  success: z.literal(true),
  data: orderSchema,
  returns: z.array(returnSchema).meta({ description: "The order's returns, newest first" }),
});

// GET → the guest order behind the private link's token (API.md, "Open storefront and guest checkout").
const route = apiRoute({
  GET: apiOperation({
    tag: "Orders",
    summary: "A guest's order, by the token of its private link",
    description:
      "No sign-in: the token from the confirmation mail is the key. Answers `Cache-Control: private, no-store` and `Referrer-Policy: same-origin`.",
    access: "public",
    success: { 200: { description: "The order and its returns", schema: guestOrderEnvelope } },
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
