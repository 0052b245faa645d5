import { Form, useNavigation } from "react-router";
import { formatPrice } from "~/lib/shared/money";
import { RETURN_REASONS, RETURN_REASON_LABELS, statusLabelOf } from "~/lib/shared/returns";
import { lineName, variantLabel } from "~/lib/shared/variants";
import {
  RETURN_INTENT,
  returnFieldName,
  type OrderReturnData,
  type ReturnFormLine,
  type ReturnFormReply,
} from "~/lib/shared/order-return-form";

/**
 * The shopper's side of returns on an order's details: the returns already
 * asked for, and the "Return items" form while the order's return window is
 * open. Plain HTML with the storefront's classes (no Mantine and no zod: the
 * account pages' JavaScript budget, docs/decisions/0008). The form posts to
 * the page's action, which answers its refusals with the values sent and an
 * error per line, so it explains itself with or without JavaScript.
 */

/**
 * The order's returns and exchanges, newest first: status in words, lines (an exchange's with the size
 * sent instead), reasons, the refund once received, an exchange's tracking once shipped.
 */
export function OrderReturnsList({ returns }: { returns: OrderReturnData[] }) {
  if (!returns.length) return null;
  const exchanges = returns.some((entry) => entry.type === "exchange");
  const refunds = returns.some((entry) => entry.type === "refund");
  return (
    <section className="order-details__section" aria-labelledby="order-returns-heading">
      <h3 id="order-returns-heading">
        {exchanges && refunds ? "Returns and exchanges" : exchanges ? "Exchanges" : "Returns"}
      </h3>
      <ul className="order-returns" data-testid="order-returns">
        {returns.map((entry) => (
          <li
            key={entry._id}
            className="order-returns__entry"
            data-testid={entry.type === "exchange" ? "order-exchange" : "order-return"}
          >
            <p className="order-returns__head">
              <span>
                {entry.type === "exchange" ? "Exchange" : "Return"} requested {entry.requestedOn}
              </span>
              <span className="order-returns__status" data-return-status={entry.status}>
                Status: {statusLabelOf(entry)}
              </span>
            </p>
            <ul className="order-returns__items">
              {entry.items.map((item, itemIndex) => (
                <li key={itemIndex}>
                  {lineName(item)} × {item.quantity}
                  {entry.type === "exchange"
                    ? ` for ${variantLabel({ size: item.newSize ?? null, colour: item.newColour ?? null })}`
                    : ""}
                  : {RETURN_REASON_LABELS[item.reason]}
                  {item.refundAmount !== null && entry.type === "refund"
                    ? ` (refund ${formatPrice(item.refundAmount)})`
                    : ""}
                </li>
              ))}
            </ul>
            {entry.tracking ? (
              <p className="order-returns__refund" data-testid="exchange-tracking">
                {entry.tracking.carrier ? `${entry.tracking.carrier} ` : ""}tracking number{" "}
                {entry.tracking.url ? (
                  <a href={entry.tracking.url} rel="noreferrer" target="_blank">
                    {entry.tracking.number}
                  </a>
                ) : (
                  entry.tracking.number
                )}
              </p>
            ) : null}
            {entry.refundAmount !== null && entry.type === "refund" ? (
              <p className="order-returns__refund" data-testid="return-refund">
                Refund: {formatPrice(entry.refundAmount)}
              </p>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** A reason select's options: none chosen first, then each reason by its label. */
export function ReturnReasonOptions() {
  return (
    <>
      <option value="">Choose a reason</option>
      {RETURN_REASONS.map((reason) => (
        <option key={reason} value={reason}>
          {RETURN_REASON_LABELS[reason]}
        </option>
      ))}
    </>
  );
}

interface ReturnRequestFormProps {
  /** The order's lines, then the replacements shipped exchanges sent; a line with nothing left is left out. */
  lines: ReturnFormLine[];
  /** The window's last day, as the shopper reads it ("24 December 2026"). */
  openUntil: string;
  reply: ReturnFormReply | null;
}

/**
 * "Return items": per line a quantity (0 to what is left of it) and a reason;
 * one submit. Lines left at 0 are not part of the request. A replacement an
 * exchange sent is a line of its own, named as sent.
 */
export function ReturnRequestForm({ lines, openUntil, reply }: ReturnRequestFormProps) {
  const navigation = useNavigation();
  const sending = navigation.state === "submitting" && navigation.formData?.get("intent") === RETURN_INTENT;
  return (
    <section className="order-return-form" aria-labelledby="return-items-heading">
      <h3 id="return-items-heading">Return items</h3>
      <p className="order-return-form__window" data-testid="returns-open-until">
        Returns open until {openUntil}
      </p>
      <Form method="post" preventScrollReset aria-labelledby="return-items-heading">
        {reply?.formError ? (
          <p className="form-error" role="alert" data-testid="return-form-error">
            {reply.formError}
          </p>
        ) : null}
        <div className="order-return-form__lines">
          {lines.map((line) => {
            const { left } = line;
            if (left <= 0) return null;
            const quantityName = returnFieldName(line.key, "quantity");
            const reasonName = returnFieldName(line.key, "reason");
            const quantityError = reply?.fieldErrors[quantityName]?.[0];
            const reasonError = reply?.fieldErrors[reasonName]?.[0];
            return (
              <fieldset
                key={line.key}
                className="order-return-form__line"
                data-testid={line.replacement ? "return-line-replacement" : "return-line"}
              >
                <legend>{line.replacement ? `${lineName(line)}, sent in exchange` : lineName(line)}</legend>
                <div className="sf-field">
                  <label htmlFor={quantityName} className="sf-field__label">
                    Quantity to return (up to {left})
                  </label>
                  <input
                    id={quantityName}
                    name={quantityName}
                    type="number"
                    inputMode="numeric"
                    min={0}
                    max={left}
                    step={1}
                    defaultValue={reply?.values[quantityName] ?? "0"}
                    className="sf-input"
                    aria-invalid={quantityError ? true : undefined}
                    aria-describedby={quantityError ? `${quantityName}-error` : undefined}
                  />
                  {quantityError ? (
                    <p className="form-error" id={`${quantityName}-error`}>
                      {quantityError}
                    </p>
                  ) : null}
                </div>
                <div className="sf-field">
                  <label htmlFor={reasonName} className="sf-field__label">
                    Reason
                  </label>
                  <select
                    id={reasonName}
                    name={reasonName}
                    defaultValue={reply?.values[reasonName] ?? ""}
                    className="sf-input"
                    aria-invalid={reasonError ? true : undefined}
                    aria-describedby={reasonError ? `${reasonName}-error` : undefined}
                  >
                    <ReturnReasonOptions />
                  </select>
                  {reasonError ? (
                    <p className="form-error" id={`${reasonName}-error`}>
                      {reasonError}
                    </p>
                  ) : null}
                </div>
              </fieldset>
            );
          })}
        </div>
        <button
          type="submit"
          name="intent"
          value={RETURN_INTENT}
          className="sf-button sf-button--primary"
          aria-busy={sending || undefined}
          disabled={sending}
        >
          Request return
        </button>
      </Form>
    </section>
  );
}
