import { Link } from "react-router";
import { formatPrice } from "~/lib/shared/money";
import type { ReturnJson } from "~/lib/shared/returns";
import { datePart } from "../OrderTable";
import { ReturnStatusBadge } from "./ReturnCard";

interface OrderReturnsProps {
  returns: Pick<ReturnJson, "_id" | "type" | "status" | "requestedAt" | "refundAmount" | "items">[];
  refundedAmount: number;
}

/**
 * The admin order page's returns: each with its status and refund, leading to
 * the returns page filtered by that status, where it is decided. Nothing when
 * the order has neither returns nor refunds.
 */
export function OrderReturns({ returns, refundedAmount }: OrderReturnsProps) {
  if (!returns.length && refundedAmount <= 0) return null;
  return (
    <section className="order-returns" aria-labelledby="order-returns-title" data-testid="order-returns">
      <h3 id="order-returns-title">Returns</h3>
      {refundedAmount > 0 ? (
        <p className="order-returns__refunded" data-testid="order-refunded">
          Refunded so far: <strong>{formatPrice(refundedAmount)}</strong>
        </p>
      ) : null}
      {returns.length ? (
        <ul>
          {returns.map((entry) => {
            const units = entry.items.reduce((sum, item) => sum + item.quantity, 0);
            return (
              <li key={entry._id} data-testid={`order-return-${entry._id}`}>
                <ReturnStatusBadge entry={entry} />
                {entry.type === "exchange" ? <span>Exchange</span> : null}
                <span>Requested {datePart(entry.requestedAt)}</span>
                <span>
                  {units} item{units === 1 ? "" : "s"}
                </span>
                {entry.refundAmount !== null && entry.type === "refund" ? (
                  <span>Refund {formatPrice(entry.refundAmount)}</span>
                ) : null}
                <Link to={`/admin/returns?status=${entry.status}&type=${entry.type}`}>See in Returns</Link>
              </li>
            );
          })}
        </ul>
      ) : null}
    </section>
  );
}
