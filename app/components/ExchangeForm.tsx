import { Form, Link, useNavigation } from "react-router";
import { lineName, variantLabel } from "~/lib/shared/variants";
import { BackInStockForm } from "./BackInStockForm";
import { ReturnReasonOptions } from "./OrderReturns";
import { EXCHANGE_INTENT, type ExchangeChoice, type ReturnFormReply } from "~/lib/shared/order-return-form";

/**
 * "Exchange for another size" under a delivered line of an order (the shopper's or a guest's): the product's other sizes
 * and colours (a sold-out one shown as such, with the back-in-stock form beside the list), how many and
 * why. The page opens it at a URL (`?exchange=<line>`), so it works without JavaScript; it posts to the
 * page's action, which answers a refusal with what was sent and why, next to the field.
 */

interface ExchangeFormProps {
  lineIndex: number;
  line: { title: string; size: string | null; colour: string | null };
  /** Units of the line that may still be exchanged. */
  left: number;
  productId: string;
  choices: ExchangeChoice[];
  waitingVariantIds: string[];
  /** The page with this form open (the back-in-stock form comes back to it), and without it. */
  openAt: string;
  closeTo: string;
  reply: ReturnFormReply | null;
}

export function ExchangeLink({ to }: { to: string }) {
  return (
    <Link to={to} preventScrollReset className="order-exchange__open" data-testid="exchange-open">
      Exchange for another size
    </Link>
  );
}

export function ExchangeForm(props: ExchangeFormProps) {
  const { lineIndex, line, left, productId, choices, waitingVariantIds, openAt, closeTo, reply } = props;
  const navigation = useNavigation();
  const sending = navigation.state === "submitting" && navigation.formData?.get("intent") === EXCHANGE_INTENT;
  const headingId = `exchange-${lineIndex}-heading`;
  const error = (field: string) => reply?.fieldErrors[field]?.[0];
  const chosen = reply?.values.newVariantId ?? "";
  return (
    <section className="order-exchange" aria-labelledby={headingId} data-testid="exchange-form">
      <h4 id={headingId}>Exchange {lineName(line)} for another size</h4>
      <p className="order-exchange__note">
        The new size is held for you as soon as you ask. Nothing is charged or refunded.
      </p>
      {choices.length === 0 ? (
        <p className="order-exchange__note">This product comes in no other size or colour.</p>
      ) : (
        <Form method="post" action={openAt} preventScrollReset aria-labelledby={headingId}>
          <input type="hidden" name="line" value={lineIndex} />
          {reply?.formError ? (
            <p className="form-error" role="alert" data-testid="exchange-form-error">
              {reply.formError}
            </p>
          ) : null}
          <fieldset
            className="order-exchange__choices"
            aria-invalid={error("newVariantId") ? true : undefined}
            aria-describedby={error("newVariantId") ? `exchange-${lineIndex}-new-error` : undefined}
          >
            <legend>New size</legend>
            {choices.map((choice) => {
              const soldOut = choice.totalStock <= 0;
              return (
                <label
                  key={choice._id}
                  className="order-exchange__choice"
                  data-sold-out={soldOut || undefined}
                >
                  <input
                    type="radio"
                    name="newVariantId"
                    value={choice._id}
                    disabled={soldOut}
                    defaultChecked={chosen === choice._id}
                    required
                  />
                  <span>{variantLabel(choice)}</span>
                  {soldOut ? <span className="order-exchange__sold-out">Sold out</span> : null}
                </label>
              );
            })}
            {error("newVariantId") ? (
              <p className="form-error" id={`exchange-${lineIndex}-new-error`}>
                {error("newVariantId")}
              </p>
            ) : null}
          </fieldset>
          <div className="order-exchange__row">
            <div className="sf-field">
              <label htmlFor={`exchange-${lineIndex}-quantity`} className="sf-field__label">
                How many (up to {left})
              </label>
              <input
                id={`exchange-${lineIndex}-quantity`}
                name="quantity"
                type="number"
                inputMode="numeric"
                min={1}
                max={left}
                step={1}
                defaultValue={reply?.values.quantity ?? "1"}
                className="sf-input"
                aria-invalid={error("quantity") ? true : undefined}
                aria-describedby={error("quantity") ? `exchange-${lineIndex}-quantity-error` : undefined}
              />
              {error("quantity") ? (
                <p className="form-error" id={`exchange-${lineIndex}-quantity-error`}>
                  {error("quantity")}
                </p>
              ) : null}
            </div>
            <div className="sf-field">
              <label htmlFor={`exchange-${lineIndex}-reason`} className="sf-field__label">
                Reason
              </label>
              <select
                id={`exchange-${lineIndex}-reason`}
                name="reason"
                defaultValue={reply?.values.reason ?? ""}
                className="sf-input"
                aria-invalid={error("reason") ? true : undefined}
                aria-describedby={error("reason") ? `exchange-${lineIndex}-reason-error` : undefined}
              >
                <ReturnReasonOptions />
              </select>
              {error("reason") ? (
                <p className="form-error" id={`exchange-${lineIndex}-reason-error`}>
                  {error("reason")}
                </p>
              ) : null}
            </div>
          </div>
          <div className="order-exchange__actions">
            <button
              type="submit"
              name="intent"
              value={EXCHANGE_INTENT}
              className="sf-button sf-button--primary"
              aria-busy={sending || undefined}
              disabled={sending}
            >
              Request exchange
            </button>
            <Link to={closeTo} preventScrollReset className="sf-button">
              Cancel
            </Link>
          </div>
        </Form>
      )}
      <BackInStockForm
        productId={productId}
        variants={choices}
        waitingVariantIds={waitingVariantIds}
        formAction={openAt}
        idPrefix={`exchange-${lineIndex}`}
      />
    </section>
  );
}
