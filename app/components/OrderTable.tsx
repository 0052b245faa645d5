import { Link } from "react-router";
import { formatPrice } from "~/lib/shared/money";
import { paymentStatusLabel } from "~/lib/shared/order-options";
import { OrderStatusBadge } from "./OrderStatusBadge";

/** What a row needs: plain data, so the admin and the shopper's history share it. */
export interface OrderRowData {
  _id: string;
  orderDate: string;
  orderStatus: string;
  paymentStatus: string;
  totalAmount: number;
  /** The admin's list names the customer; the shopper's history does not. */
  customerName?: string;
}

interface OrderTableProps {
  orders: OrderRowData[];
  /** The details dialog's URL for an order. */
  detailsHref: (orderId: string) => string;
  emptyText?: string;
  /** Adds the Customer column (the admin's list). */
  showCustomer?: boolean;
}

/** "2024-05-01T10:00:00.000Z" → "2024-05-01" (SPEC: the date part only). */
export function datePart(iso: string): string {
  return iso.split("T")[0] ?? iso;
}

/** The orders table (Order ID, Order Date, [Customer], Order Status, Payment, Order Price, View Details). */
export function OrderTable({
  orders,
  detailsHref,
  emptyText = "No orders yet.",
  showCustomer = false,
}: OrderTableProps) {
  if (!orders.length) return <p className="order-table__empty">{emptyText}</p>;
  return (
    <div className="order-table__scroll">
      <table className="order-table">
        <thead>
          <tr>
            <th scope="col">Order ID</th>
            <th scope="col">Order Date</th>
            {showCustomer ? <th scope="col">Customer</th> : null}
            <th scope="col">Order Status</th>
            <th scope="col">Payment</th>
            <th scope="col">Order Price</th>
            <th scope="col">
              <span className="visually-hidden">Details</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {orders.map((order) => (
            <tr key={order._id} data-testid="order-row">
              <td className="order-table__id" data-label="Order ID">
                {order._id}
              </td>
              <td data-label="Order Date">{datePart(order.orderDate)}</td>
              {showCustomer ? <td data-label="Customer">{order.customerName}</td> : null}
              <td data-label="Order Status">
                <OrderStatusBadge status={order.orderStatus} />
              </td>
              <td data-label="Payment" data-payment-status={order.paymentStatus}>
                {paymentStatusLabel(order.paymentStatus)}
              </td>
              <td data-label="Order Price">{formatPrice(order.totalAmount)}</td>
              <td>
                <Link to={detailsHref(order._id)} className="order-table__details" preventScrollReset>
                  View Details
                </Link>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
