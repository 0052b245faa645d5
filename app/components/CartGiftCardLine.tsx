import type { CartGiftCardLineJson } from "~/lib/shared/gift-cards";
import { formatCents } from "~/lib/shared/cart";
import { toCents } from "~/lib/shared/money";
import { CartForm } from "./CartContents";
import { useCartSubmit } from "./useShopCart";

/** A gift card bought: its amount and recipient, and a remove form (the line's `_id` in the product's place). */
export function GiftCardLine({ line, redirectTo }: { line: CartGiftCardLineJson; redirectTo: string }) {
  const submitCart = useCartSubmit();
  return (
    <li className="cart-line" data-testid="cart-gift-card-line">
      <div className="cart-line__image" />
      <div className="cart-line__main">
        <h3 className="cart-line__title">{line.title}</h3>
        <p className="cart-line__variant">
          For {line.giftCard.recipientName || line.giftCard.recipientEmail}
        </p>
      </div>
      <div className="cart-line__end">
        <p className="cart-line__total">{formatCents(toCents(line.price))}</p>
        <CartForm
          intent="remove"
          productId={line._id}
          variantId=""
          redirectTo={redirectTo}
          onSubmit={(event) => {
            event.preventDefault();
            submitCart(event.currentTarget);
          }}
        >
          <button type="submit" className="sf-button sf-button--small">
            Remove
          </button>
        </CartForm>
      </div>
    </li>
  );
}
