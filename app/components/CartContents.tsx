import { showToast } from "./FlashToast";
import { Link } from "react-router";
import type { FormEvent, ReactNode } from "react";
import {
  CART_ACTION_PATH,
  formatCents,
  lineTotalCents,
  stockLimitMessage,
  unitPriceCents,
  type CartIntent,
  type CartLineView,
} from "~/lib/shared/cart";
import { variantLabel } from "~/lib/shared/variants";
import type { CartGiftCardLineJson } from "~/lib/shared/gift-cards";
import { toCents } from "~/lib/shared/money";
import { ConfirmDisclosure } from "./ConfirmDisclosure";
import { Picture } from "./Picture";
import { useCartSubmit, type ShopCart } from "./useShopCart";

/**
 * What the cart panel ("Your Cart") shows, in the header's drawer with
 * JavaScript and on /shop/cart without it: item rows (image, title, − and +,
 * remove, line total), "Total" and "Checkout". Every control is a small POST
 * form to the one cart action with an `intent`; with JavaScript the form goes
 * out in the background and the change shows at once (see useShopCart).
 */

function CartForm({
  intent,
  productId,
  variantId,
  redirectTo,
  onSubmit,
  children,
}: {
  intent: CartIntent;
  productId: string;
  /** The line's variant: the same product in M and L is two lines. */
  variantId: string;
  /** Where a browser without JavaScript lands after the post. */
  redirectTo: string;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  children: ReactNode;
}) {
  return (
    <form method="post" action={CART_ACTION_PATH} onSubmit={onSubmit} className="cart-form">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="productId" value={productId} />
      <input type="hidden" name="variantId" value={variantId} />
      <input type="hidden" name="redirectTo" value={redirectTo} />
      {children}
    </form>
  );
}

/** SPEC §5: "+" past the stock sends nothing and says why (the server repeats the rule). */
function showStockMessage(quantityInCart: number) {
  void showToast({ type: "error", message: stockLimitMessage(quantityInCart) });
}

function TrashIcon() {
  return (
    <svg
      width="18"
      height="18"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      aria-hidden="true"
    >
      <path d="M3 6h18" />
      <path d="M8 6V4h8v2" />
      <path d="M19 6l-1 14H6L5 6" />
      <path d="M10 11v6M14 11v6" />
    </svg>
  );
}

function CartLine({ item, redirectTo }: { item: CartLineView; redirectTo: string }) {
  const submitCart = useCartSubmit();
  const send = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    submitCart(event.currentTarget);
  };
  const increase = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (item.quantity + 1 > item.totalStock) {
      showStockMessage(item.quantity);
      return;
    }
    submitCart(event.currentTarget);
  };
  const onSale = item.salePrice > 0;
  const option = variantLabel(item);
  // Controls name the line by its title and size, so that M and L of one product are told apart.
  const name = option ? `${item.title} (${option})` : item.title;
  return (
    <li
      className="cart-line"
      data-testid="cart-line"
      data-product-id={item.productId}
      data-variant-id={item.variantId}
    >
      <Picture
        className="cart-line__image"
        picture={{ url: item.image, width: item.imageWidth, height: item.imageHeight, alt: "" }}
        // The line's fixed 4.5rem box (storefront.css .cart-line__image).
        sizes="72px"
      />
      <div className="cart-line__main">
        <h3 className="cart-line__title">{item.title}</h3>
        {option ? (
          <p className="cart-line__variant" data-testid="cart-line-variant">
            {option}
          </p>
        ) : null}
        <p className="cart-line__unit">
          {onSale ? (
            <s>
              <span className="visually-hidden">Was </span>
              {formatCents(unitPriceCents({ price: item.price, salePrice: 0 }))}
            </s>
          ) : null}{" "}
          {formatCents(unitPriceCents(item))} each
        </p>
        <div className="cart-line__quantity" role="group" aria-label={`Quantity of ${name}`}>
          <CartForm
            intent="decrease"
            productId={item.productId}
            variantId={item.variantId}
            redirectTo={redirectTo}
            onSubmit={send}
          >
            <button
              type="submit"
              className="cart-step"
              disabled={item.quantity <= 1}
              aria-label={`Decrease the quantity of ${name}`}
            >
              −
            </button>
          </CartForm>
          <span className="cart-line__count" data-testid="cart-line-quantity" aria-live="polite">
            {item.quantity}
          </span>
          <CartForm
            intent="increase"
            productId={item.productId}
            variantId={item.variantId}
            redirectTo={redirectTo}
            onSubmit={increase}
          >
            <button type="submit" className="cart-step" aria-label={`Increase the quantity of ${name}`}>
              +
            </button>
          </CartForm>
        </div>
        {item.quantity > item.totalStock ? (
          <p className="cart-line__warning">
            {item.totalStock > 0 ? `Only ${item.totalStock} left in stock` : "Out Of Stock"}
          </p>
        ) : null}
      </div>
      <div className="cart-line__end">
        <p className="cart-line__total" data-testid="cart-line-total">
          {formatCents(lineTotalCents(item))}
        </p>
        <ConfirmDisclosure
          className="cart-remove-confirm"
          label={`Remove ${name} from the cart`}
          toggle={<TrashIcon />}
          question={`Remove ${name}?`}
        >
          <CartForm
            intent="remove"
            productId={item.productId}
            variantId={item.variantId}
            redirectTo={redirectTo}
            onSubmit={send}
          >
            <button type="submit" className="sf-button sf-button--primary cart-remove">
              Remove
            </button>
          </CartForm>
        </ConfirmDisclosure>
      </div>
    </li>
  );
}

/** A gift card bought: its amount and recipient, and a remove form (the line's `_id` in the product's place). */
function GiftCardLine({ line, redirectTo }: { line: CartGiftCardLineJson; redirectTo: string }) {
  const submitCart = useCartSubmit();
  return (
    <li className="cart-line" data-testid="cart-gift-card-line">
      <div className="cart-line__image cart-line__image--gift-card" aria-hidden="true">
        <span className="gift-card-drawing" />
      </div>
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

export function CartContents({ cart, redirectTo }: { cart: ShopCart; redirectTo: string }) {
  const hasLines = cart.items.length > 0 || cart.giftCardLines.length > 0;
  return (
    <div className="cart-contents" aria-busy={cart.pending || undefined} data-testid="cart-contents">
      {cart.notices.length ? (
        <ul className="cart-notices" aria-label="Changes to your cart" data-testid="cart-notices">
          {cart.notices.map((notice) => (
            <li key={notice}>{notice}</li>
          ))}
        </ul>
      ) : null}
      {hasLines ? (
        <>
          <h2 className="visually-hidden">Items in your cart</h2>
          <ul className="cart-lines" aria-label="Items in your cart">
            {cart.items.map((item) => (
              <CartLine key={item.variantId} item={item} redirectTo={redirectTo} />
            ))}
            {cart.giftCardLines.map((line) => (
              <GiftCardLine key={line._id} line={line} redirectTo={redirectTo} />
            ))}
          </ul>
        </>
      ) : (
        <div className="cart-empty">
          <p>Your cart is empty</p>
          <Link to="/shop/listing" className="sf-button">
            Continue shopping
          </Link>
        </div>
      )}
      {hasLines ? (
        <div className="cart-summary">
          <p className="cart-total">
            <span>Total</span>
            <span data-testid="cart-total">{formatCents(cart.totalCents)}</span>
          </p>
          {cart.items.length > 0 ? (
            // Gift cards alone are sent by email and take no tax: nothing more to come at checkout.
            <p className="cart-summary__note" data-testid="cart-tax-note">
              Delivery and tax are shown at checkout.
            </p>
          ) : null}
          <Link to="/shop/checkout" className="sf-button sf-button--primary sf-button--block cart-checkout">
            Checkout
          </Link>
        </div>
      ) : null}
    </div>
  );
}
