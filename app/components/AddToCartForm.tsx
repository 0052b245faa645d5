import { Form, useNavigation } from "react-router";
import type { ReactNode } from "react";
import { CART_ACTION_PATH, type CartIntent } from "~/lib/shared/cart";

const ADD: CartIntent = "add";

interface AddToCartFormProps {
  productId: string;
  productTitle: string;
  totalStock: number;
  /** The current page's URL (path and search): the cart action redirects back to it. */
  redirectTo: string;
  className?: string;
  /**
   * A plain <form> for a grid that submits its forms through React Router itself
   * (ProductGrid): rendering React Router's <Form> costs the server a dozen hooks per card.
   */
  plain?: boolean;
  /** Fields before the button: the size and colour picker (its `variantId` goes with the form). */
  children?: ReactNode;
}

/**
 * "Add to cart" as a small POST form to the cart action (works without
 * JavaScript), or the disabled "Out Of Stock" button at zero stock (SPEC §2
 * Product card). The server applies the stock rule and redirects back to
 * `redirectTo` with a flash message, success or refusal alike.
 */
export function AddToCartForm(props: AddToCartFormProps) {
  const pending = useAddingToCart() === props.productId;
  return <AddToCartFormView {...props} pending={pending} />;
}

/** The product whose add to cart is on its way (the form posted through React Router), if any. */
export function useAddingToCart(): string | null {
  const navigation = useNavigation();
  if (navigation.state !== "submitting" || navigation.formData?.get("intent") !== ADD) return null;
  const productId = navigation.formData.get("productId");
  return typeof productId === "string" ? productId : null;
}

/**
 * The form itself, from its props alone (no router state): a product card renders it, so that the card's markup
 * depends on nothing but its props (ProductGrid keeps it rendered on the server).
 */
export function AddToCartFormView({
  productId,
  productTitle,
  totalStock,
  redirectTo,
  className = "",
  plain = false,
  pending,
  children,
}: AddToCartFormProps & {
  /** Its add to cart is on its way: the button says so (`aria-busy`). */
  pending: boolean;
}) {
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
      <input type="hidden" name="intent" value={ADD} />
      <input type="hidden" name="productId" value={productId} />
      <input type="hidden" name="redirectTo" value={redirectTo} />
      {children}
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
    <form method="post" action={CART_ACTION_PATH} className={className}>
      {fields}
    </form>
  ) : (
    <Form method="post" action={CART_ACTION_PATH} preventScrollReset className={className}>
      {fields}
    </Form>
  );
}
