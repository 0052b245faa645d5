import { z } from "zod";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";
import { clientKeyOf } from "~/web/request.server";
import { guestOrderLookupSchema, lookupGuestOrder } from "~/services/guest-orders.server";
import { GUEST_ORDER_HEADERS } from "~/web/guest-order-headers.server";

const lookupAnswer = z.object({ success: z.literal(true), message: z.string() });

/**
 * POST { email, orderId } → 200 the same message whether or not such a guest order exists; when it does,
 * its link is mailed again under a new token (the old link stops working). Rate limited (429).
 */
const route = apiRoute({
  POST: apiOperation({
    tag: "Orders",
    summary: "Find my order: mail a guest order's link again",
    description:
      "Always the same answer. When a guest order of that email has that id (or number), a new private link is mailed to the email and the earlier link stops working.",
    access: "public",
    body: guestOrderLookupSchema,
    success: { 200: { description: "The one answer, found or not", schema: lookupAnswer } },
    errors: {
      400: "An invalid email or a missing orderId (`errors` names them)",
      429: "Too many lookups from this client or for this email; Retry-After says when to try again",
    },
    handler: async ({ input, context }) => {
      const { message } = await lookupGuestOrder(input, clientKeyOf(context));
      return apiJson({ success: true, message }, { headers: GUEST_ORDER_HEADERS });
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
