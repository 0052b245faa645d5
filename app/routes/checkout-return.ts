import type { LoaderFunctionArgs } from "react-router";
import { clientReturnTarget } from "~/services/payment-return.server";

/**
 * The bridge between the payment provider and an external client's own
 * return or cancel page (services/payment-return.server.ts): PayPal (or the
 * simulator) comes back here with `token` and `PayerID`; the shopper goes on
 * to the client's URL with `paymentId` and `PayerID`. Only links the shop
 * signed are followed, each for its own order's payment; anything else is a
 * 400 page, never an open redirect.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const target = await clientReturnTarget(new URL(request.url));
  if (!target) {
    return new Response("This return link is not valid. Please go back to the shop and try again.", {
      status: 400,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
    });
  }
  return new Response(null, {
    status: 303,
    headers: { Location: target, "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" },
  });
}
