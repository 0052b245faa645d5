import { Form } from "react-router";
import { GIFT_CARD_INTENTS, GIFT_CARDS_PER_CART, type CartGiftCardView } from "~/lib/shared/gift-card-view";
import { formatPrice } from "~/lib/shared/money";

interface GiftCardFormProps {
  /** The page whose action takes the forms. */
  action: string;
  cards: readonly CartGiftCardView[];
  error: string | null;
}

/**
 * "Gift cards": apply a code, see what each card pays, remove one. Plain forms posting to the page's action
 * (POST/redirect/GET without JavaScript); the server says what each card pays.
 */
export function GiftCardForm({ action, cards, error }: GiftCardFormProps) {
  return (
    <section className="discount-code" aria-labelledby="gift-card-heading" data-testid="gift-cards">
      <h3 id="gift-card-heading" className="discount-code__heading">
        Gift cards
      </h3>
      {cards.map((card) => (
        <Form
          key={card.last4}
          method="post"
          action={action}
          preventScrollReset
          className="discount-code__applied"
        >
          <input type="hidden" name="last4" value={card.last4} />
          <p data-testid="gift-card-applied">
            Card ending <strong>{card.last4}</strong> pays {formatPrice(card.amountApplied)} (balance{" "}
            {formatPrice(card.balance)}).
          </p>
          <button
            type="submit"
            name="intent"
            value={GIFT_CARD_INTENTS.remove}
            className="sf-button"
            aria-label={`Remove the card ending ${card.last4}`}
          >
            Remove
          </button>
        </Form>
      ))}
      {cards.length < GIFT_CARDS_PER_CART ? (
        // Keyed by the cards applied: a card taken clears the field (its code is not left on the screen).
        <Form
          key={cards.map((card) => card.last4).join()}
          method="post"
          action={action}
          preventScrollReset
          className="discount-code__form"
        >
          <label htmlFor="gift-card-input" className="visually-hidden">
            Gift card code
          </label>
          <input
            id="gift-card-input"
            name="code"
            className="discount-code__input"
            placeholder="XXXX-XXXX-XXXX-XXXX"
            autoComplete="off"
            maxLength={24}
            required
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "gift-card-error" : undefined}
          />
          <button type="submit" name="intent" value={GIFT_CARD_INTENTS.apply} className="sf-button">
            Apply
          </button>
        </Form>
      ) : null}
      {error ? (
        <p id="gift-card-error" className="discount-code__error" role="alert" data-testid="gift-card-error">
          {error}
        </p>
      ) : null}
    </section>
  );
}
