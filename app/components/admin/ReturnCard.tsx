import { Form, Link } from "react-router";
import { formatPrice } from "~/lib/shared/money";
import { shortOrderNumber } from "~/lib/shared/order-options";
import { RETURN_REASON_LABELS, statusLabelOf, type ReturnJson } from "~/lib/shared/returns";
import { CARRIERS, TRACKING_NUMBER_MAX } from "~/lib/shared/tracking";
import { variantLabel } from "~/lib/shared/variants";
import { datePart } from "../OrderTable";

/** The buttons an admin's return page posts: each names the status it asks for. */
export const RETURN_INTENTS = {
  approve: "approved",
  reject: "rejected",
  receive: "received",
  ship: "shipped",
} as const;
export type ReturnIntent = keyof typeof RETURN_INTENTS;

/**
 * The moves a return in `status` offers. The service decides (a stale page
 * still posts and is answered 409); this only keeps the buttons honest.
 */
function intentsFor(entry: Pick<ReturnJson, "type" | "status">): ReturnIntent[] {
  if (entry.status === "requested") return ["approve", "reject", "receive"];
  if (entry.status === "approved") return ["reject", "receive"];
  if (entry.status === "received" && entry.type === "exchange") return ["ship"];
  return [];
}

const INTENT_LABELS: Record<ReturnIntent, string> = {
  approve: "Approve",
  reject: "Reject",
  receive: "Mark received",
  ship: "Ship the new size",
};

/** The status as a word and a tone: the word carries the meaning, the colour only repeats it. */
export function ReturnStatusBadge({ entry }: { entry: Pick<ReturnJson, "type" | "status"> }) {
  return (
    <span className={`return-status return-status--${entry.status}`} data-status={entry.status}>
      {statusLabelOf(entry)}
    </span>
  );
}

interface ReturnCardProps {
  entry: ReturnJson;
  /** The refusal of the last action on this return (409, 502 …), shown by its buttons. */
  error?: string;
  /** The intent being submitted for this return, while it is (JavaScript only). */
  pendingIntent?: string | null;
}

/** One return in the admin's list: whose, what and why, its status, its refund and what may be done next. */
export function ReturnCard({ entry, error, pendingIntent }: ReturnCardProps) {
  const intents = intentsFor(entry);
  const exchange = entry.type === "exchange";
  const number = shortOrderNumber(entry.orderId);
  const headingId = `return-${entry._id}`;
  return (
    <article className="return-card" aria-labelledby={headingId} data-testid={`return-${entry._id}`}>
      <header className="return-card__head">
        <h2 id={headingId} className="return-card__title">
          {exchange ? "Exchange" : "Return"} for order{" "}
          <Link to={`/admin/orders/${entry.orderId}`}>{number}</Link>
        </h2>
        <ReturnStatusBadge entry={entry} />
      </header>
      <dl className="return-card__facts">
        <div>
          <dt>Customer</dt>
          <dd>
            {entry.userName} <span className="return-card__email">{entry.email}</span>
          </dd>
        </div>
        <div>
          <dt>Requested</dt>
          <dd>{datePart(entry.requestedAt)}</dd>
        </div>
        {entry.trackingNumber ? (
          <div>
            <dt>Replacement sent</dt>
            <dd data-testid="exchange-tracking">
              {entry.carrier} {entry.trackingNumber}
            </dd>
          </div>
        ) : null}
        {entry.refundAmount !== null && !exchange ? (
          <div>
            <dt>Refund</dt>
            <dd data-testid="return-refund">
              {formatPrice(entry.refundAmount)}
              {entry.shippingRefundAmount > 0
                ? ` (delivery ${formatPrice(entry.shippingRefundAmount)} included)`
                : ""}
            </dd>
          </div>
        ) : null}
      </dl>
      <ul className="return-card__lines" aria-label={`Items returned for order ${number}`}>
        {entry.items.map((item, index) => {
          const variant = variantLabel(item);
          return (
            <li key={`${item.variantId ?? item.productId ?? item.title}-${index}`}>
              <span className="return-card__item">{item.title}</span>
              {variant ? <span>{variant}</span> : null}
              {item.sku ? <span>SKU {item.sku}</span> : null}
              <span>Qty {item.quantity}</span>
              {exchange ? (
                <span data-testid="exchange-new">
                  For {variantLabel({ size: item.newSize ?? null, colour: item.newColour ?? null })}
                </span>
              ) : null}
              <span>{RETURN_REASON_LABELS[item.reason]}</span>
              {item.refundAmount !== null ? <span>Refund {formatPrice(item.refundAmount)}</span> : null}
            </li>
          );
        })}
      </ul>
      {intents.length ? (
        <div className="return-card__actions">
          {intents.map((intent) => (
            <Form method="post" preventScrollReset key={intent} className="return-card__action">
              <input type="hidden" name="returnId" value={entry._id} />
              {intent === "ship" ? (
                <>
                  <label className="return-card__field">
                    Carrier
                    <select name="carrier" required defaultValue="">
                      <option value="" disabled>
                        Choose
                      </option>
                      {CARRIERS.map((carrier) => (
                        <option key={carrier} value={carrier}>
                          {carrier}
                        </option>
                      ))}
                    </select>
                  </label>
                  <label className="return-card__field">
                    Tracking number
                    <input name="trackingNumber" required maxLength={TRACKING_NUMBER_MAX} />
                  </label>
                </>
              ) : null}
              {intent === "receive" && !exchange ? (
                <label className="return-card__check">
                  <input type="checkbox" name="refundShipping" defaultChecked={entry.refundShipping} />
                  Refund delivery too
                </label>
              ) : null}
              <button
                type="submit"
                name="intent"
                value={intent}
                className={intent === "reject" ? "admin-btn" : "admin-btn admin-btn--dark"}
                disabled={Boolean(pendingIntent)}
                aria-describedby={error ? `${headingId}-error` : undefined}
              >
                {pendingIntent === intent ? `${INTENT_LABELS[intent]}…` : INTENT_LABELS[intent]}
              </button>
            </Form>
          ))}
        </div>
      ) : null}
      {error ? (
        <p className="field-error" role="alert" id={`${headingId}-error`} data-testid="return-error">
          {error}
        </p>
      ) : null}
    </article>
  );
}
