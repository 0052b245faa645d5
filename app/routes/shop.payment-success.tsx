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
import { GUEST_ORDER_TEXT } from "~/lib/shared/guest-orders";
import { formatPrice } from "~/lib/shared/money";
import { shortOrderNumber } from "~/lib/shared/order-options";
import { CURRENT_ORDER_ID_KEY } from "~/lib/shared/checkout";
import { getOrderForUser } from "~/services/orders.server";
import checkoutStyles from "~/styles/checkout.css?url";
import { revalidateAfterRefusal } from "~/lib/shared/revalidation";

export const shouldRevalidate = revalidateAfterRefusal;

/**
 * The success page (SPEC §2 Payment pages, §4 Checkout flow 6): "Payment is
 * successfull!" (the spec's spelling) and "View Orders". With `?orderId=` of
 * one of the shopper's paid orders it also shows the short order number, the
 * items, the total and the delivery address, and links to the order.
 */

export const links: LinksFunction = () => [{ rel: "stylesheet", href: checkoutStyles }];

export async function loader({ request }: LoaderFunctionArgs) {
  const buyer = await requireBuyer(request);
  const orderId = new URL(request.url).searchParams.get("orderId");
  const order = orderId ? await getOrderForUser(ownerOfPageBuyer(buyer), orderId).catch(() => null) : null;
  return data({
    order:
      order && order.paymentStatus === "paid"
        ? {
            _id: order._id,
            totalAmount: order.totalAmount,
            items: order.cartItems.map(({ title, quantity, price }) => ({ title, quantity, price })),
            address: order.addressInfo,
            // A guest's order has no account page: its private link went to their email.
            ...(order.guestEmail ? { guestEmail: order.guestEmail } : {}),
          }
        : null,
  });
}

export const meta: MetaFunction = () => [
  { title: "Payment successful · ECommerce Shopping" },
  { name: "robots", content: "noindex" },
];

export default function PaymentSuccessPage() {
  const { order } = useLoaderData<typeof loader>();
  const guestEmail = order && "guestEmail" in order ? order.guestEmail : null;
  // The checkout is over: the stored order id has done its job (the return page clears it too).
  useEffect(() => {
    try {
      sessionStorage.removeItem(CURRENT_ORDER_ID_KEY);
    } catch {
      // no storage
    }
  }, []);
  return (
    <div className="shop-page">
      <section className="payment-status" aria-labelledby="payment-success-title">
        <h1 className="payment-status__title" id="payment-success-title">
          Payment is successfull!
        </h1>
        {order ? (
          <div className="payment-status__details" data-testid="paid-order">
            <p className="payment-status__number">
              Order number <strong>{shortOrderNumber(order._id)}</strong>
            </p>
            <h2 className="payment-status__subtitle">Items</h2>
            <ul className="payment-status__items">
              {order.items.map((item, index) => (
                <li key={`${item.title}-${index}`}>
                  <span>{item.title}</span>
                  <span>
                    {item.quantity} × {formatPrice(item.price)}
                  </span>
                </li>
              ))}
            </ul>
            <p className="payment-status__total">
              Total <strong>{formatPrice(order.totalAmount)}</strong>
            </p>
            <h2 className="payment-status__subtitle">Delivery address</h2>
            <address className="payment-status__address">
              {order.address.address}, {order.address.city} {order.address.pincode}
              <br />
              {order.address.phone}
            </address>
          </div>
        ) : null}
        {guestEmail ? (
          <div className="payment-status__actions">
            <p className="payment-status__text" data-testid="guest-link-mailed">
              {GUEST_ORDER_TEXT.linkMailed(guestEmail)}
            </p>
            <Link to="/shop/listing" className="sf-button sf-button--primary">
              Continue shopping
            </Link>
          </div>
        ) : (
          <div className="payment-status__actions">
            {order ? (
              <Link to={`/shop/account/orders/${order._id}`} className="sf-button">
                View this order
              </Link>
            ) : null}
            <Link to="/shop/account" className="sf-button sf-button--primary">
              View Orders
            </Link>
          </div>
        )}
      </section>
    </div>
  );
}
