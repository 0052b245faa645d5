import { Form } from "react-router";
import { ALERT_INTENTS } from "~/lib/shared/stock-alerts";
import { choiceOf, variantLabel, type VariantChoice, type VariantJson } from "~/lib/shared/variants";

/** What the heading calls the options a product varies by. */
const OPTION_NAMES: Record<VariantChoice, [one: string, some: string]> = {
  none: ["size", "sizes"],
  size: ["size", "sizes"],
  colour: ["colour", "colours"],
  "size and colour": ["size", "sizes"],
};

/**
 * "Notify me when it's back" for each sold-out size (or the product, when it
 * has one variant): one POST form to the page's own action whose buttons
 * each send their size's `variantId`, so it works without JavaScript and
 * takes one click. A size the shopper already waits for says so instead.
 */
export function BackInStockForm({
  productId,
  variants,
  waitingVariantIds,
  formAction,
  idPrefix,
}: {
  productId: string;
  variants: readonly Pick<VariantJson, "_id" | "size" | "colour" | "totalStock">[];
  waitingVariantIds: readonly string[];
  formAction: string;
  idPrefix: string;
}) {
  const soldOut = variants.filter((variant) => variant.totalStock <= 0);
  if (!soldOut.length) return null;
  const waiting = new Set(waitingVariantIds);
  const single = variants.length === 1;
  const headingId = `${idPrefix}-back-in-stock`;
  return (
    <Form
      method="post"
      action={formAction}
      preventScrollReset
      className="back-in-stock"
      aria-labelledby={headingId}
      data-testid="back-in-stock"
    >
      <input type="hidden" name="intent" value={ALERT_INTENTS.notify} />
      <input type="hidden" name="productId" value={productId} />
      <p className="back-in-stock__heading" id={headingId}>
        {single
          ? "Sold out"
          : soldOut.length === 1
            ? `Sold out in one ${OPTION_NAMES[choiceOf(variants)][0]}`
            : `Sold out in some ${OPTION_NAMES[choiceOf(variants)][1]}`}
      </p>
      {soldOut.map((variant) => {
        const name = single ? "" : variantLabel(variant);
        return waiting.has(variant._id) ? (
          <p key={variant._id} className="back-in-stock__waiting">
            {name ? `${name}: we will mail you when it is back` : "We will mail you when it is back"}
          </p>
        ) : (
          <button
            key={variant._id}
            type="submit"
            name="variantId"
            value={variant._id}
            className="sf-button sf-button--small back-in-stock__button"
          >
            {name ? `Notify me when ${name} is back` : "Notify me when it's back"}
          </button>
        );
      })}
    </Form>
  );
}
