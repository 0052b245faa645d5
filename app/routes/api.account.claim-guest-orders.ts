import { messageEnvelope } from "~/web/openapi/schemas.server";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";
import { GUEST_ORDER_CLAIM_TEXT } from "~/lib/shared/guest-order-claims";
import { requestGuestOrderClaim } from "~/services/guest-order-claims.server";

/** No body. The same 200 whether or not guest orders of the caller's email exist. */
const route = apiRoute({
  POST: apiOperation({
    tag: "Account",
    summary:
      "Mail the caller's address a link that adds its guest orders to the caller's order history (the same answer whether or not there are any)",
    access: "shopper",
    success: { 200: { description: "Requested", schema: messageEnvelope } },
    errors: {
      401: "Not signed in",
      403: "The back office, or an API key: they have no guest orders",
      429: "Too many requests for a link from this account",
    },
    handler: async ({ caller }) => {
      await requestGuestOrderClaim(caller);
      return apiJson({ success: true, message: GUEST_ORDER_CLAIM_TEXT.requested });
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
