import type { ReactNode } from "react";
import { formatPrice, toCents } from "~/lib/shared/money";
import { shippingLabel } from "~/lib/shared/order-money";
import { paymentStatusLabel } from "~/lib/shared/order-options";
import { colourLabel, sizeLabel } from "~/lib/shared/variants";
import { datePart } from "./OrderTable";
import { OrderStatusBadge } from "./OrderStatusBadge";
import { Picture } from "./Picture";

/** How each part of an order's payment is named. */
const PAID_WITH: Record<string, string> = {
  giftCard: "Gift card",
  storeCredit: "Store credit",
  paypal: "PayPal",
};

/** What the details view needs: plain data, so the admin and the shopper's history share it. */
export interface OrderDetailsData {
  _id: string;
  orderDate: string;
  totalAmount: number;
  /** The money's parts (orders made before delivery options have subtotal = total and zeros). */
  subtotal: number;
  shippingAmount: number;
  discountAmount: number;
  shippingMethod: { name: string; price: number } | null;
  discountCode: string | null;
  /** The tax as charged (absent or 0: none); inside the prices when pricesIncludeTax. */
  taxAmount?: number;
  taxLines?: { name: string; rate: number; amount: number }[];
  pricesIncludeTax?: boolean;
  paymentMethod: string;
  paymentStatus: string;
  /** How the total was paid: gift cards and store credit, then PayPal (absent: PayPal alone). */
  payments?: { method: string; last4?: string; amount: number }[];
  /** The gift cards the order buys: by recipient, and the card's last four once issued (never its code). */
  giftCardItems?: {
    _id: string;
    amount: number;
    recipientEmail: string;
    recipientName: string | null;
    last4: string | null;
  }[];
  /** Money sent back so far (returns, or a rejection's full refund). */
  refundedAmount?: number;
  orderStatus: string;
  cartItems: {
    productId: string | null;
    title: string;
    quantity: number;
    price: number;
    /** Units of the line in returns and exchanges that were not rejected (absent: an order before returns). */
    returnedQuantity?: number;
    /** Of those, the units in exchanges (absent: an order before exchanges). */
    exchangedQuantity?: number;
    /** The line's tax (absent: an order before tax). */
    taxAmount?: number;
    /** The variant as it was when the order was made (null where the product had none). */
    sku: string | null;
    size: string | null;
    colour: string | null;
    /** The picture as it was ordered, with its own size when it is a processed upload. */
    image?: string;
    imageWidth?: number | null;
    imageHeight?: number | null;
  }[];
  addressInfo: {
    address: string;
    city: string;
    pincode: string;
    phone: string;
    notes: string;
    country?: string;
    region?: string | null;
  };
  /** The parcel's tracking, once the order shipped; trackingUrl is the carrier's page when it has one. */
  trackingNumber?: string | null;
  carrier?: string | null;
  trackingUrl?: string | null;
}

interface OrderDetailsProps {
  order: OrderDetailsData;
  /** The name shown in the shipping info (the customer's, or the signed-in shopper's). */
  customerName: string;
  /** Below the details: the admin's status form; the shopper's Pay now and Cancel order. */
  children?: ReactNode;
  /** Under a line (by its position): the shopper's or a guest's "Exchange for another size". */
  lineExtra?: (index: number) => ReactNode;
}

/** A line's units in returns for their money (returnedQuantity counts what exchanges hold too). */
const returnedUnits = (line: OrderDetailsData["cartItems"][number]) =>
  (line.returnedQuantity ?? 0) - (line.exchangedQuantity ?? 0);

/** An order's details (SPEC §2): summary, items, shipping info. */
export function OrderDetails({ order, customerName, children, lineExtra }: OrderDetailsProps) {
  const address = order.addressInfo;
  return (
    <div className="order-details">
      <dl className="order-details__summary">
        <div>
          <dt>Order ID</dt>
          <dd>{order._id}</dd>
        </div>
        <div>
          <dt>Order Date</dt>
          <dd>{datePart(order.orderDate)}</dd>
        </div>
        <div>
          <dt>Subtotal</dt>
          <dd data-testid="order-subtotal">{formatPrice(order.subtotal)}</dd>
        </div>
        {order.discountAmount > 0 ? (
          <div>
            <dt>Discount{order.discountCode ? ` (${order.discountCode})` : ""}</dt>
            <dd data-testid="order-discount">−{formatPrice(order.discountAmount)}</dd>
          </div>
        ) : null}
        {order.shippingMethod ? (
          <div>
            <dt>Delivery ({order.shippingMethod.name})</dt>
            <dd data-testid="order-shipping">{shippingLabel(toCents(order.shippingAmount))}</dd>
          </div>
        ) : null}
        {order.taxAmount ? (
          <div>
            <dt>{order.pricesIncludeTax ? "Includes tax" : "Tax"}</dt>
            <dd data-testid="order-tax">{formatPrice(order.taxAmount)}</dd>
          </div>
        ) : null}
        {order.taxAmount && (order.taxLines?.length ?? 0) > 1
          ? order.taxLines!.map((line) => (
              <div key={line.name}>
                <dt>
                  {line.name} ({line.rate} %)
                </dt>
                <dd data-testid="order-tax-line">{formatPrice(line.amount)}</dd>
              </div>
            ))
          : null}
        <div>
          <dt>Order Price</dt>
          <dd data-testid="order-total">{formatPrice(order.totalAmount)}</dd>
        </div>
        {order.refundedAmount ? (
          <div>
            <dt>Refunded</dt>
            <dd data-testid="order-refunded">−{formatPrice(order.refundedAmount)}</dd>
          </div>
        ) : null}
        <div>
          <dt>Payment method</dt>
          <dd>{order.paymentMethod}</dd>
        </div>
        {order.payments?.some((payment) => payment.method !== "paypal")
          ? order.payments.map((payment) => (
              <div key={`${payment.method}${payment.last4 ?? ""}`}>
                <dt>
                  {PAID_WITH[payment.method] ?? payment.method}
                  {payment.last4 ? ` ending ${payment.last4}` : ""}
                </dt>
                <dd data-testid="order-payment">{formatPrice(payment.amount)}</dd>
              </div>
            ))
          : null}
        {order.giftCardItems?.map((card) => (
          <div key={card._id}>
            <dt>
              Gift card for {card.recipientName || card.recipientEmail}
              {card.last4 && ` ending ${card.last4}`}
            </dt>
            <dd>{formatPrice(card.amount)}</dd>
          </div>
        ))}
        <div>
          <dt>Payment Status</dt>
          <dd data-payment-status={order.paymentStatus}>{paymentStatusLabel(order.paymentStatus)}</dd>
        </div>
        <div>
          <dt>Order Status</dt>
          <dd>
            <OrderStatusBadge status={order.orderStatus} />
          </dd>
        </div>
        {order.carrier ? (
          <div>
            <dt>Carrier</dt>
            <dd>{order.carrier}</dd>
          </div>
        ) : null}
        {order.trackingNumber ? (
          <div>
            <dt>Tracking number</dt>
            <dd data-testid="tracking-number">
              {order.trackingUrl ? (
                <a href={order.trackingUrl} target="_blank" rel="noopener noreferrer">
                  {order.trackingNumber}
                </a>
              ) : (
                order.trackingNumber
              )}
            </dd>
          </div>
        ) : null}
      </dl>

      <section className="order-details__section" aria-labelledby={`items-${order._id}`}>
        <h3 id={`items-${order._id}`}>Order Details</h3>
        <ul className="order-details__items">
          {order.cartItems.map((item, index) => (
            <li key={`${item.productId ?? "removed"}-${index}`}>
              {item.image ? (
                <Picture
                  className="order-details__image"
                  picture={{
                    url: item.image,
                    width: item.imageWidth ?? null,
                    height: item.imageHeight ?? null,
                    alt: "",
                  }}
                  // The line's fixed 3rem box (orders.css .order-details__image).
                  sizes="48px"
                />
              ) : null}
              <span>Title: {item.title}</span>
              {item.size ? <span>Size: {sizeLabel(item.size)}</span> : null}
              {item.colour ? <span>Colour: {colourLabel(item.colour)}</span> : null}
              {item.sku ? <span>SKU: {item.sku}</span> : null}
              <span>Quantity: {item.quantity}</span>
              {returnedUnits(item) ? (
                <span data-testid="line-returned">{returnedUnits(item)} returned</span>
              ) : null}
              {item.exchangedQuantity ? (
                <span data-testid="line-exchanged">{item.exchangedQuantity} exchanged</span>
              ) : null}
              <span>Price: {formatPrice(item.price)}</span>
              {item.taxAmount ? <span data-testid="line-tax">Tax: {formatPrice(item.taxAmount)}</span> : null}
              {lineExtra?.(index)}
            </li>
          ))}
        </ul>
      </section>

      <section className="order-details__section" aria-labelledby={`shipping-${order._id}`}>
        <h3 id={`shipping-${order._id}`}>Shipping Info</h3>
        <address className="order-details__address">
          <span>{customerName}</span>
          <span>{address.address}</span>
          <span>{address.city}</span>
          <span>{address.pincode}</span>
          <span>{address.phone}</span>
          <span>{address.notes}</span>
          {address.country ? (
            <span>{address.region ? `${address.region}, ${address.country}` : address.country}</span>
          ) : null}
        </address>
      </section>

      {children}
    </div>
  );
}
