import { readForm } from "~/lib/server/request-body.server";
import { notFound } from "~/lib/server/errors.server";
import {
  type ActionFunctionArgs,
  data,
  Form,
  Link,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  useActionData,
  useLoaderData,
} from "react-router";
import { AccountTabs } from "~/components/AccountTabs";
import { Picture } from "~/components/Picture";
import { ProductPrices } from "~/components/ProductPrices";
import { formatPrice, toCents, centsToDecimal } from "~/lib/shared/money";
import { revalidateAfterRefusal } from "~/lib/shared/revalidation";
import { ACCOUNT_WISHLIST_PATH, productPathWithVariant, WISHLIST_TEXT } from "~/lib/shared/stock-alerts";
import { payPrice, variantLabel } from "~/lib/shared/variants";
import { addToCart } from "~/services/cart-lines.server";
import { removeFromWishlist, wishlistWithChoices } from "~/services/wishlist.server";
import { requireShopper } from "~/web/auth.server";
import { runOrRefuse } from "~/web/form-action.server";
import { redirectWithFlash } from "~/web/session.server";
import checkoutStyles from "~/styles/checkout.css?url";
import accountListStyles from "~/styles/account-lists.css?url";

export const shouldRevalidate = revalidateAfterRefusal;

/**
 * The shopper's wishlist: each product (or size) with its price now against
 * the price when it was added, whether it is in stock, "Move to cart"
 * (choosing the size when the item has none) and Remove. Plain POST forms
 * with redirects: it works without JavaScript.
 */

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: checkoutStyles },
  { rel: "stylesheet", href: accountListStyles },
];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireShopper(request);
  return data({ items: await wishlistWithChoices(user.id) });
}

const INTENTS = { move: "move-to-cart", remove: "remove" } as const;

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireShopper(request);
  const formData = await readForm(request);
  const intent = formData.get("intent");
  const itemId = formData.get("itemId");
  return runOrRefuse(
    async () => {
      if (intent === INTENTS.move) {
        const items = await wishlistWithChoices(user.id);
        const item = items.find((candidate) => candidate._id === itemId);
        if (!item) throw notFound(WISHLIST_TEXT.notFound);
        // The cart refuses a missing size ("Please choose a size"), a sold-out one and stock limits.
        await addToCart(user.id, item.productId, 1, item.variantId ?? formData.get("variantId"));
        await removeFromWishlist(user.id, item._id);
        return redirectWithFlash(request, ACCOUNT_WISHLIST_PATH, {
          type: "success",
          message: `"${item.title}" moved to your cart`,
          link: { href: "/shop/cart", label: "View cart" },
        });
      }
      if (intent === INTENTS.remove) {
        await removeFromWishlist(user.id, itemId);
        return redirectWithFlash(request, ACCOUNT_WISHLIST_PATH, {
          type: "success",
          message: WISHLIST_TEXT.removed,
        });
      }
      return data({ error: "This form cannot be sent here. Please reload the page." }, { status: 400 });
    },
    (error) => data({ error: error.message }, { status: error.status }),
  );
}

export const meta: MetaFunction = () => [{ title: "Wishlist · ECommerce Shopping" }];

/** "$4.00 less than when you saved it", or more, or nothing when the same. */
function priceChange(now: number, then: number): string | null {
  const difference = toCents(now) - toCents(then);
  if (difference === 0) return null;
  const amount = formatPrice(centsToDecimal(Math.abs(difference)));
  return difference < 0 ? `${amount} less than when you saved it` : `${amount} more than when you saved it`;
}

export default function WishlistPage() {
  const { items } = useLoaderData<typeof loader>();
  const refused = useActionData<typeof action>();
  return (
    <div className="shop-page">
      <h1 className="page-heading">Account</h1>
      <AccountTabs current="wishlist" />
      <section className="account-panel" aria-labelledby="wishlist-title">
        <h2 className="account-panel__title" id="wishlist-title">
          Wishlist
        </h2>
        {refused && "error" in refused ? (
          <p className="form-error" role="alert">
            {refused.error}
          </p>
        ) : null}
        {items.length === 0 ? (
          <p className="muted">
            Nothing saved yet. Tap the heart on a product to keep it here.{" "}
            <Link to="/shop/listing">Browse products</Link>
          </p>
        ) : (
          <ul className="wishlist" data-testid="wishlist">
            {items.map((item) => {
              const option = variantLabel(item);
              const paysNow = payPrice(item);
              const change = priceChange(paysNow, item.priceWhenAdded);
              const sizes = item.choices.filter((choice) => choice.inStock);
              return (
                <li key={item._id} className="wishlist-item" data-testid="wishlist-item">
                  <Picture
                    className="wishlist-item__image"
                    picture={{ url: item.image, width: null, height: null, alt: "" }}
                    // The item's fixed 4.5rem box (checkout.css .wishlist-item__image).
                    sizes="72px"
                  />
                  <div className="wishlist-item__main">
                    <h3 className="wishlist-item__title">
                      <Link to={productPathWithVariant(item.productId, item.variantId)}>{item.title}</Link>
                    </h3>
                    {option ? <p className="wishlist-item__option">{option}</p> : null}
                    <ProductPrices
                      price={item.price}
                      salePrice={item.salePrice}
                      className="wishlist-item__prices"
                    />
                    <p className="wishlist-item__then">
                      When saved: {formatPrice(item.priceWhenAdded)}
                      {change ? <span className="wishlist-item__change"> · {change}</span> : null}
                    </p>
                    <p
                      className={
                        item.inStock
                          ? "wishlist-item__stock"
                          : "wishlist-item__stock wishlist-item__stock--out"
                      }
                    >
                      {item.inStock ? "In stock" : "Out of stock"}
                    </p>
                  </div>
                  <div className="wishlist-item__actions">
                    {item.inStock ? (
                      <Form method="post" className="wishlist-item__move">
                        <input type="hidden" name="intent" value={INTENTS.move} />
                        <input type="hidden" name="itemId" value={item._id} />
                        {item.variantId === null && item.choices.length > 1 ? (
                          <label className="wishlist-item__size">
                            <span>Size</span>
                            <select name="variantId" required className="sf-input" defaultValue="">
                              <option value="" disabled>
                                Choose
                              </option>
                              {sizes.map((choice) => (
                                <option key={choice.variantId} value={choice.variantId}>
                                  {variantLabel(choice)}
                                </option>
                              ))}
                            </select>
                          </label>
                        ) : null}
                        <button type="submit" className="sf-button sf-button--primary sf-button--small">
                          Move to cart<span className="visually-hidden">: {item.title}</span>
                        </button>
                      </Form>
                    ) : null}
                    <Form method="post">
                      <input type="hidden" name="intent" value={INTENTS.remove} />
                      <input type="hidden" name="itemId" value={item._id} />
                      <button type="submit" className="sf-button sf-button--small">
                        Remove<span className="visually-hidden">: {item.title}</span>
                      </button>
                    </Form>
                  </div>
                </li>
              );
            })}
          </ul>
        )}
      </section>
    </div>
  );
}
