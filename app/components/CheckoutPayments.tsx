import type { ChangeEvent } from "react";
import {
  CHECKOUT_PAYMENT_TEXT,
  USE_STORE_CREDIT_FIELD,
  type CheckoutPaymentsView,
} from "~/lib/shared/gift-card-view";
import { formatPrice } from "~/lib/shared/money";

/**
 * The checkout's payments beside its total: the "Use my store credit" box, and what each card and the credit
 * pay and what is left for PayPal. Every amount is the server's (app/services/gift-cards/checkout-payments.server.ts,
 * the split `create` spends); the page only shows it.
 */

/**
 * The box belongs to the checkout form (`form`), so that "Checkout" sends it and, without JavaScript,
 * "Update total" puts it in the page's URL. Unticked until the shopper ticks it: spending a balance is their
 * choice (as at Shopify, and the API's `useStoreCredit` defaults to false), and the credit they keep may pay
 * for a later order.
 */
export function StoreCreditBox({
  credit,
  form,
  onChange,
}: {
  credit: NonNullable<CheckoutPaymentsView["storeCredit"]>;
  form: string;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
}) {
  return (
    <label className="store-credit-box" data-testid="store-credit-box">
      <input
        type="checkbox"
        name={USE_STORE_CREDIT_FIELD}
        value="1"
        form={form}
        defaultChecked={credit.used}
        onChange={onChange}
      />
      <span>Use my store credit ({formatPrice(credit.available)} available)</span>
    </label>
  );
}

/** What the cards and the credit pay of the total, and PayPal's part (nothing when no balance pays). */
export function PaymentSplit({ payments }: { payments: CheckoutPaymentsView }) {
  const cards = payments.giftCards.filter((card) => card.amountApplied > 0);
  const credit = payments.storeCredit?.used ? payments.storeCredit.amountApplied : 0;
  if (!cards.length && !credit) return null;
  return (
    <div data-testid="checkout-payments">
      <dl className="money-summary">
        {credit ? (
          <div>
            <dt>Store credit</dt>
            <dd data-testid="payment-store-credit">−{formatPrice(credit)}</dd>
          </div>
        ) : null}
        {cards.map((card) => (
          <div key={card.last4}>
            <dt>Gift card ending {card.last4}</dt>
            <dd data-testid="payment-gift-card">−{formatPrice(card.amountApplied)}</dd>
          </div>
        ))}
        <div className="money-summary__total">
          <dt>PayPal</dt>
          <dd data-testid="payment-paypal">{formatPrice(payments.paypalAmount)}</dd>
        </div>
      </dl>
      {payments.paypalAmount === 0 ? (
        <p className="checkout-payments__paid" data-testid="paid-in-full">
          {CHECKOUT_PAYMENT_TEXT.paidInFull}
        </p>
      ) : null}
    </div>
  );
}
