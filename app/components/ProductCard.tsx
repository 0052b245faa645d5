import { useNavigate, useSubmit } from "react-router";
import { useEffect, useRef } from "react";
import { useKept } from "~/lib/shared/server-markup";
import { BRAND_LABELS, CATEGORY_LABELS } from "~/lib/shared/catalog-options";
import { productBadge, type ProductCardData } from "~/lib/shared/product-display";
import { AddToCartFormView, useAddingToCart } from "./AddToCartForm";
import { isModifiedClick, PlainLink } from "./PlainLink";
import { Picture, type PicturePriority } from "./Picture";
import { ProductPrices } from "./ProductPrices";
import { WishlistHeart } from "./WishlistHeart";

/**
 * A card's picture width per breakpoint, from storefront.css's product grid: two columns beside a 1rem
 * gutter and a 0.75rem gap below 640 px; above, auto-fill columns of at least 13.5rem beside the listing's
 * 14rem filters (at most about 300 px wide below 1024 px, 250 px above), or of at least 15rem on the
 * full-width grids of home and search (at most about 320 px).
 */
export const CARD_SIZES = {
  listing: "(max-width: 639px) calc(50vw - 22px), (max-width: 1023px) 300px, 250px",
  fullWidth: "(max-width: 639px) calc(50vw - 22px), 320px",
} as const;

/**
 * One product in a grid. Deliberately plain markup (the grid repeats it 24
 * times and server rendering is the cost centre): the title link stretches
 * over the whole card and opens the details dialog. The link is a PlainLink and
 * the add-to-cart form a plain <form> to the cart action that the grid around
 * it submits through React Router once scripts run (ProductGrid), so the server does
 * not render React Router's <Link> and <Form> (each a dozen router hooks) 24 times over.
 * Its markup depends on its props alone (no context, no router hook): the server keeps it
 * rendered (docs/decisions/0036).
 */
function ProductCard({
  product,
  detailsHref,
  redirectTo,
  priority = "lazy",
  sizes = CARD_SIZES.listing,
  adding = false,
}: {
  product: ProductCardData;
  detailsHref: string;
  /** The page's URL, where the cart action brings the shopper back to. */
  redirectTo: string;
  /** Above the fold: `eager`, or `high` for the page's largest first-screen picture. */
  priority?: PicturePriority;
  sizes?: string;
  /** Its add to cart is on its way. */
  adding?: boolean;
}) {
  const badge = productBadge(product);
  const chooseText = product.choice === "colour" ? "Choose colour" : "Choose size";
  return (
    <article className="product-card">
      <div className="product-card__media">
        <Picture
          picture={{
            url: product.image,
            width: product.imageWidth,
            height: product.imageHeight,
            alt: product.title,
          }}
          sizes={sizes}
          priority={priority}
        />
        {badge ? <span className={`product-badge product-badge--${badge.tone}`}>{badge.label}</span> : null}
        {/* Posts to the page's own action (the storefront's), which brings the shopper back here. */}
        <WishlistHeart
          productId={product._id}
          productTitle={product.title}
          formAction={redirectTo}
          className="wishlist-heart-form product-card__heart"
          plain
        />
      </div>
      <div className="product-card__body">
        <h3 className="product-card__title">
          <PlainLink to={detailsHref} className="product-card__link" keepScroll>
            {product.title}
          </PlainLink>
        </h3>
        <p className="product-card__meta">
          <span>{CATEGORY_LABELS[product.category]}</span>
          <span>{BRAND_LABELS[product.brand]}</span>
        </p>
        <ProductPrices price={product.price} salePrice={product.salePrice} className="product-card__prices" />
      </div>
      {product.choice !== "none" && product.totalStock > 0 ? (
        <div className="product-card__action">
          {/* A link to the product page, where the picker is; the grid opens the dialog instead once scripts run. */}
          <a
            href={`/shop/product/${product._id}`}
            className="sf-button sf-button--primary sf-button--block"
            data-dialog-href={detailsHref}
          >
            {/* One text for screen readers ("Choose size: Title"): browsers put a space before a hidden part. */}
            <span aria-hidden="true">{chooseText}</span>
            <span className="visually-hidden">{`${chooseText}: ${product.title}`}</span>
          </a>
        </div>
      ) : (
        <AddToCartFormView
          productId={product._id}
          productTitle={product.title}
          totalStock={product.totalStock}
          redirectTo={redirectTo}
          className="product-card__action"
          plain
          pending={adding}
        />
      )}
    </article>
  );
}

/**
 * What <Form method="post" preventScrollReset> does for each card's add-to-cart
 * form, done once for the grid by listening on it: the form submits through
 * React Router to its own action, the cart's, which redirects back here (its pending
 * state is in useNavigation, as with <Form>). The cards' links are PlainLinks.
 * A "Choose size" link opens the details dialog (`data-dialog-href`) instead of
 * the product page. Without JavaScript they are a link and a form.
 */
function useCardSubmission() {
  const grid = useRef<HTMLDivElement>(null);
  const submit = useSubmit();
  const navigate = useNavigate();
  useEffect(() => {
    const element = grid.current;
    if (!element) return;
    const onClick = (event: MouseEvent) => {
      const target = event.target instanceof Element ? event.target.closest("a[data-dialog-href]") : null;
      if (!(target instanceof HTMLAnchorElement) || event.defaultPrevented || isModifiedClick(event, target))
        return;
      event.preventDefault();
      navigate(target.dataset.dialogHref ?? target.href, { preventScrollReset: true });
    };
    const onSubmit = (event: SubmitEvent) => {
      const form = event.target;
      if (!(form instanceof HTMLFormElement) || event.defaultPrevented) return;
      event.preventDefault();
      const submitter = event.submitter instanceof HTMLButtonElement ? event.submitter : form;
      submit(submitter, { method: "post", preventScrollReset: true });
    };
    element.addEventListener("submit", onSubmit);
    element.addEventListener("click", onClick);
    return () => {
      element.removeEventListener("submit", onSubmit);
      element.removeEventListener("click", onClick);
    };
  }, [submit, navigate]);
  return grid;
}

/** The first row's pictures at once (the first one first, unless something larger leads the page), the rest lazily. */
function cardPriority(index: number, eagerCount: number, firstIsLargest: boolean): PicturePriority {
  if (index >= eagerCount) return "lazy";
  return index === 0 && firstIsLargest ? "high" : "eager";
}

/**
 * The grid's cards, from their props alone: the server keeps their markup (ProductGrid). `detailsHrefs` are the
 * cards' details links, one per product; `adding` is the product whose add to cart is on its way.
 */
function ProductCards(cards: {
  products: ProductCardData[];
  detailsHrefs: string[];
  redirectTo: string;
  eagerCount: number;
  firstIsLargest: boolean;
  sizes: string;
  adding: string | null;
}) {
  return (
    <>
      {cards.products.map((product, index) => (
        <ProductCard
          key={product._id}
          product={product}
          detailsHref={cards.detailsHrefs[index] ?? ""}
          redirectTo={cards.redirectTo}
          priority={cardPriority(index, cards.eagerCount, cards.firstIsLargest)}
          sizes={cards.sizes}
          adding={cards.adding === product._id}
        />
      ))}
    </>
  );
}

/**
 * The product grid. The first row (four cards on a laptop, the first two of them on a phone's first
 * screen) loads its pictures at once, the rest lazily; the first card's picture is fetched first unless
 * something larger leads the page (the home page's banner: `firstIsLargest={false}`).
 */
export function ProductGrid({
  products,
  detailsHref,
  redirectTo,
  eagerCount = 4,
  firstIsLargest = true,
  sizes = CARD_SIZES.listing,
}: {
  products: ProductCardData[];
  detailsHref: (productId: string) => string;
  redirectTo: string;
  eagerCount?: number;
  firstIsLargest?: boolean;
  sizes?: string;
}) {
  const grid = useCardSubmission();
  const adding = useAddingToCart();
  const kept = useKept();
  const detailsHrefs = products.map((product) => detailsHref(product._id));
  return (
    <div
      className="product-grid"
      ref={grid}
      {...kept(ProductCards, {
        products,
        detailsHrefs,
        redirectTo,
        eagerCount,
        firstIsLargest,
        sizes,
        adding,
      })}
    />
  );
}
