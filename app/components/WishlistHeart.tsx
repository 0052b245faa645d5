import { Form } from "react-router";
import { ALERT_INTENTS } from "~/lib/shared/stock-alerts";

/**
 * The heart: a one-button POST form to the page's own action (works without
 * JavaScript). Filled when the product is in the shopper's wishlist (then it
 * takes it out); a card's heart only adds (a grid does not read the
 * wishlist: adding twice keeps the item once). `plain` renders a plain
 * <form> for a grid that submits its forms itself (ProductGrid).
 */
export function WishlistHeart({
  productId,
  productTitle,
  formAction,
  wishlisted = false,
  plain = false,
  className = "",
}: {
  productId: string;
  productTitle: string;
  formAction: string;
  wishlisted?: boolean;
  plain?: boolean;
  className?: string;
}) {
  const label = wishlisted ? "Remove from wishlist" : "Save to wishlist";
  const fields = (
    <>
      <input
        type="hidden"
        name="intent"
        value={wishlisted ? ALERT_INTENTS.wishlistRemove : ALERT_INTENTS.wishlistAdd}
      />
      <input type="hidden" name="productId" value={productId} />
      <button
        type="submit"
        className={`wishlist-heart${wishlisted ? " wishlist-heart--on" : ""}`}
        aria-pressed={wishlisted}
        title={label}
        data-testid="wishlist-heart"
      >
        <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
          <path d="M12 21s-7.5-4.6-9.6-9.3C.9 8.3 3 4.5 6.6 4.5c2.1 0 3.6 1.2 4.4 2.6.8-1.4 2.3-2.6 4.4-2.6 3.6 0 5.7 3.8 4.2 7.2C19.5 16.4 12 21 12 21z" />
        </svg>
        <span className="visually-hidden">{`${label}: ${productTitle}`}</span>
      </button>
    </>
  );
  const classes = `wishlist-heart-form ${className}`.trim();
  return plain ? (
    <form method="post" action={formAction} className={classes}>
      {fields}
    </form>
  ) : (
    <Form method="post" action={formAction} preventScrollReset className={classes}>
      {fields}
    </Form>
  );
}
