import { Form } from "react-router";
import { DISCOUNT_INTENTS, type AppliedDiscountJson } from "~/lib/shared/delivery";
import { formatPrice, toCents } from "~/lib/shared/money";
import { shippingLabel } from "~/lib/shared/order-money";

interface MoneySummaryData {
  subtotal: number;
  discountAmount: number;
  shippingAmount: number;
  totalAmount: number;
  discount: AppliedDiscountJson | null;
  /** The tax for the chosen address; null: none chosen yet ("calculated at checkout"); undefined: not shown. */
  taxAmount?: number | null;
  taxLines?: readonly { name: string; rate: number; amount: number }[];
  /** The tax is inside the prices (VAT): shown as "includes", not added. */
  pricesIncludeTax?: boolean;
}

/** The tax rows: one per rate that applied, or why there is no figure yet. */
function TaxRows({ money }: { money: MoneySummaryData }) {
  if (money.taxAmount === undefined) return null;
  if (money.taxAmount === null) {
    return (
      <div>
        <dt>Tax</dt>
        <dd data-testid="summary-tax">{money.pricesIncludeTax ? "Included" : "Calculated at checkout"}</dd>
      </div>
    );
  }
  const lines = money.taxLines ?? [];
  return (
    <>
      <div>
        <dt>{money.pricesIncludeTax ? "Includes tax" : "Tax"}</dt>
        <dd data-testid="summary-tax">{formatPrice(money.taxAmount)}</dd>
      </div>
      {lines.length > 1
        ? lines.map((line) => (
            <div key={line.name} className="money-summary__sub">
              <dt>
                {line.name} ({line.rate} %)
              </dt>
              <dd data-testid="summary-tax-line">{formatPrice(line.amount)}</dd>
            </div>
          ))
        : null}
    </>
  );
}

/**
 * Subtotal, discount, delivery and total, as the server computed them
 * (lib/shared/order-money.ts). On the cart page (`beforeDelivery`) delivery
 * is still to be chosen, so its total is the one before delivery; the
 * checkout shows the delivery row when there are options to choose, and the
 * tax once an address is chosen.
 */
export function MoneySummary({
  money,
  withShipping,
  beforeDelivery = false,
}: {
  money: MoneySummaryData;
  withShipping: boolean;
  beforeDelivery?: boolean;
}) {
  return (
    <dl className="money-summary" data-testid="money-summary">
      <div>
        <dt>Subtotal</dt>
        <dd data-testid="summary-subtotal">{formatPrice(money.subtotal)}</dd>
      </div>
      {money.discount ? (
        <div>
          <dt>Discount ({money.discount.code})</dt>
          <dd data-testid="summary-discount">−{formatPrice(money.discountAmount)}</dd>
        </div>
      ) : null}
      {withShipping ? (
        <div>
          <dt>Delivery</dt>
          <dd data-testid="summary-shipping">{shippingLabel(toCents(money.shippingAmount))}</dd>
        </div>
      ) : null}
      <TaxRows money={money} />
      <div className="money-summary__total">
        <dt>{beforeDelivery ? "Total before delivery" : "Total"}</dt>
        <dd data-testid="summary-total">
          {formatPrice(beforeDelivery ? money.subtotal - money.discountAmount : money.totalAmount)}
        </dd>
      </div>
    </dl>
  );
}

interface DiscountCodeFormProps {
  /** The page whose action takes the form. */
  action: string;
  discount: AppliedDiscountJson | null;
  discountAmount: number;
  /** Why the code the shopper asked for takes nothing off (a refusal, or the cart's code no longer applies). */
  error: string | null;
}

/**
 * "Discount code": apply one, or remove the one applied. Plain forms that
 * post to the page's action (POST/redirect/GET without JavaScript; with it,
 * React Router submits them and reloads the page's data without a reload).
 */
export function DiscountCodeForm({ action, discount, discountAmount, error }: DiscountCodeFormProps) {
  return (
    <section className="discount-code" aria-labelledby="discount-code-heading">
      <h3 id="discount-code-heading" className="discount-code__heading">
        Discount code
      </h3>
      {discount ? (
        <Form method="post" action={action} preventScrollReset className="discount-code__applied">
          <p data-testid="discount-applied">
            <strong>{discount.code}</strong> takes {formatPrice(discountAmount)} off.
          </p>
          <button type="submit" name="intent" value={DISCOUNT_INTENTS.remove} className="sf-button">
            Remove
          </button>
        </Form>
      ) : (
        <Form method="post" action={action} preventScrollReset className="discount-code__form">
          <label htmlFor="discount-code-input" className="visually-hidden">
            Discount code
          </label>
          <input
            id="discount-code-input"
            name="code"
            className="discount-code__input"
            placeholder="Enter your code"
            autoComplete="off"
            maxLength={40}
            required
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "discount-code-error" : undefined}
          />
          <button type="submit" name="intent" value={DISCOUNT_INTENTS.apply} className="sf-button">
            Apply
          </button>
        </Form>
      )}
      {error ? (
        <p
          id="discount-code-error"
          className="discount-code__error"
          role="alert"
          data-testid="discount-error"
        >
          {error}
        </p>
      ) : null}
    </section>
  );
}
