import {
  data,
  Link,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  useLoaderData,
} from "react-router";
import { useEffect } from "react";
import { ownerOfPageBuyer, requireBuyer } from "~/web/checkout-buyer.server";
import { CURRENT_ORDER_ID_KEY } from "~/lib/shared/checkout";
import { findOrderByPayment } from "~/services/checkout.server";
import checkoutStyles from "~/styles/checkout.css?url";
import { revalidateAfterRefusal } from "~/lib/shared/revalidation";

export const shouldRevalidate = revalidateAfterRefusal;

/**
 * Where PayPal (or the simulator) sends a shopper who cancels (API.md Orders
 * and payment: cancel). Nothing changes: the cart stays as it was and the
 * order stays unpaid; the shopper can check out again whenever they like.
 */

export const links: LinksFunction = () => [{ rel: "stylesheet", href: checkoutStyles }];

export async function loader({ request }: LoaderFunctionArgs) {
  const buyer = await requireBuyer(request);
  const url = new URL(request.url);
  const order = await findOrderByPayment(
    ownerOfPageBuyer(buyer),
    url.searchParams.get("token") ?? url.searchParams.get("paymentId"),
  );
  return data(
    { orderId: order && order.paymentStatus !== "paid" ? order.orderId : null },
    { headers: { "Cache-Control": "no-store" } },
  );
}

export const meta: MetaFunction = () => [
  { title: "Payment cancelled · ECommerce Shopping" },
  { name: "robots", content: "noindex" },
];

export default function PaypalCancelPage() {
  const { orderId } = useLoaderData<typeof loader>();
  useEffect(() => {
    try {
      sessionStorage.removeItem(CURRENT_ORDER_ID_KEY);
    } catch {
      // no storage
    }
  }, []);
  return (
    <div className="shop-page">
      <section className="payment-status" aria-labelledby="payment-cancelled-title">
        <h1 className="payment-status__title" id="payment-cancelled-title">
          Payment cancelled
        </h1>
        <p className="payment-status__text">
          You cancelled the payment, so nothing was charged. Your cart is unchanged: check out again whenever
          you are ready.
        </p>
        {orderId ? (
          <p className="payment-status__text" data-testid="cancelled-order">
            Order {orderId} stays unpaid.
          </p>
        ) : null}
        <div className="payment-status__actions">
          <Link to="/shop/checkout" className="sf-button sf-button--primary">
            Back to checkout
          </Link>
          <Link to="/shop/listing" className="sf-button">
            Continue shopping
          </Link>
        </div>
      </section>
    </div>
  );
}
