import { Form } from "react-router";
import { ALERT_INTENTS } from "~/lib/shared/stock-alerts";

/**
 * The heart: a one-button POST form to the page's own action (works without
 * JavaScript). Filled when the product is in the shopper's wishlist (then it
 * takes it out); a card's heart only adds (a grid does not read the
 * wishlist: adding twice keeps the item once). `plain` renders a plain
 * <form> for a grid that submits its forms itself (ProductGrid). Three
 * elements, the heart drawn by CSS: a grid repeats it 24 times, and every
 * element costs the server's render.
 */
export function WishlistHeart({
  productId,
  productTitle,
  formAction,
  wishlisted = false,
  plain = false,
  className = "wishlist-heart-form",
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
      <input type="hidden" name="productId" value={productId} />
      <button
        type="submit"
        name="intent"
        value={wishlisted ? ALERT_INTENTS.wishlistRemove : ALERT_INTENTS.wishlistAdd}
        className={wishlisted ? "wishlist-heart wishlist-heart--on" : "wishlist-heart"}
        aria-pressed={wishlisted}
        aria-label={`${label}: ${productTitle}`}
        title={label}
        data-testid="wishlist-heart"
      />
    </>
  );
  return plain ? (
    <form method="post" action={formAction} className={className}>
      {fields}
    </form>
  ) : (
    <Form method="post" action={formAction} preventScrollReset className={className}>
      {fields}
    </Form>
  );
}
