import { Form, useNavigation } from "@remix-run/react";

/**
 * "Add to cart" as a small POST form (works without JavaScript), or the
 * disabled "Out Of Stock" button at zero stock (SPEC §2 Product card). The
 * server applies the stock rule and answers with a flash message.
 */
export function AddToCartForm({
  productId,
  productTitle,
  totalStock,
  formAction,
  className = "",
  plain = false,
}: {
  productId: string;
  productTitle: string;
  totalStock: number;
  /** The current page's URL: the action redirects back to it. */
  formAction: string;
  className?: string;
  /**
   * A plain <form> for a grid that submits its forms through Remix itself
   * (ProductGrid): rendering Remix's <Form> costs the server a dozen hooks per card.
   */
  plain?: boolean;
}) {
  const navigation = useNavigation();
  const pending =
    navigation.state === "submitting" &&
    navigation.formData?.get("intent") === "add-to-cart" &&
    navigation.formData?.get("productId") === productId;
  if (totalStock <= 0) {
    return (
      <div className={className}>
        <button type="button" className="sf-button sf-button--block" disabled>
          Out Of Stock
        </button>
      </div>
    );
  }
  const fields = (
    <>
      <input type="hidden" name="intent" value="add-to-cart" />
      <input type="hidden" name="productId" value={productId} />
      <button
        type="submit"
        className="sf-button sf-button--primary sf-button--block"
        aria-busy={pending || undefined}
      >
        Add to cart<span className="visually-hidden">: {productTitle}</span>
      </button>
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
