import type { SubmissionResult } from "@conform-to/react";
import { Link, useLocation, useNavigate, useRouteLoaderData } from "react-router";
import { useEffect, useRef, useState, type RefObject } from "react";
import { BRAND_LABELS, CATEGORY_LABELS } from "~/lib/shared/catalog-options";
import { productFacts } from "~/lib/shared/product";
import { formatRating, productBadge, type ProductJson } from "~/lib/shared/product-display";
import { useHydrated } from "~/lib/shared/use-hydrated";
import { AddToCartForm } from "./AddToCartForm";
import { withMantineOverlayStyles } from "./FlashToast";
import type ProductModalType from "./ProductModal";
import { ProductGallery } from "./ProductGallery";
import { ProductPrices } from "./ProductPrices";
import { StarRating } from "./StarRating";
import { chooseMessage, lowStockText } from "~/lib/shared/variants";
import { VariantPicker } from "./VariantPicker";
import { ReviewForm } from "./ReviewForm";
import { BackInStockForm } from "./BackInStockForm";
import { WishlistHeart } from "./WishlistHeart";
import { VARIANT_PARAM } from "~/lib/shared/stock-alerts";
import { SHOP_LAYOUT_ROUTE_ID, type ShopLayoutData } from "~/lib/shared/cart";
import { PlainLink } from "./PlainLink";

/** The product as the details show it (the loader's shape, after JSON). */
interface ProductDetailsData extends ProductJson {
  reviewCount: number;
  reviews: {
    _id: string;
    userName: string;
    reviewMessage: string;
    reviewValue: number;
    createdAt: string;
  }[];
  /** The signed-in shopper's alerts for its sizes and its heart (pages that read them). */
  shopper?: { waitingVariantIds: string[]; wishlisted: boolean };
}

/**
 * Everything about one product (SPEC §2 Product details): its pictures, title,
 * description, prices, the average rating with two decimals, add to cart,
 * the reviews and "Write a review". Used by the dialog and the product page.
 */
export function ProductDetails({
  product,
  formAction,
  reviewResult,
  titleAs,
  chooseRefused = false,
}: {
  product: ProductDetailsData;
  formAction: string;
  reviewResult?: SubmissionResult<string[]>;
  /** "h1" on the product page; null in the dialog, whose header shows the title. */
  titleAs: "h1" | null;
  /** "Add to cart" came back refused for want of a size: the picker says so. */
  chooseRefused?: boolean;
}) {
  const location = useLocation();
  // A visitor without an account (the open storefront) signs in to review.
  const visitor = useRouteLoaderData<ShopLayoutData>(SHOP_LAYOUT_ROUTE_ID)?.user === null;
  const Heading = titleAs === "h1" ? "h2" : "h3";
  const badge = productBadge(product);
  // The back-in-stock mail links to the product with its size chosen (`?variant=`).
  const urlVariant = new URLSearchParams(location.search).get(VARIANT_PARAM);
  const purchase = useVariantChoice(product, chooseRefused, urlVariant);
  const idPrefix = `${titleAs ?? "dialog"}-${product._id}`;
  return (
    <div className="product-details">
      <div className="product-details__media">
        <ProductGallery
          images={product.images}
          title={product.title}
          idPrefix={idPrefix}
          colour={purchase.colour}
        />
        {badge ? <span className={`product-badge product-badge--${badge.tone}`}>{badge.label}</span> : null}
      </div>
      <div className="product-details__info">
        <div className="product-details__title-row">
          {titleAs === "h1" ? <h1 className="product-details__title">{product.title}</h1> : null}
          <WishlistHeart
            productId={product._id}
            productTitle={product.title}
            formAction={formAction}
            wishlisted={product.shopper?.wishlisted ?? false}
          />
        </div>
        <p className="product-details__meta">
          <Link to={`/shop/listing?category=${product.category}`}>{CATEGORY_LABELS[product.category]}</Link>
          <Link to={`/shop/listing?brand=${encodeURIComponent(product.brand)}`}>
            {BRAND_LABELS[product.brand]}
          </Link>
        </p>
        <p className="product-details__description">{product.description}</p>
        <ProductFacts product={product} />
        <ProductPrices
          price={purchase.chosen?.price ?? product.price}
          salePrice={purchase.chosen?.salePrice ?? product.salePrice}
          className="product-details__prices"
          large
        />
        <p className="product-details__rating">
          <StarRating value={product.averageReview} />
          <span className="product-details__average" data-testid="average-review">
            ({formatRating(product.averageReview)})
          </span>
        </p>
        <AddToCartForm
          productId={product._id}
          productTitle={product.title}
          totalStock={product.totalStock}
          redirectTo={formAction}
        >
          <VariantPicker
            variants={product.variants}
            idPrefix={idPrefix}
            error={purchase.error}
            onChoose={purchase.choose}
            onColour={purchase.chooseColour}
            defaultVariantId={urlVariant}
          />
          {purchase.chosen && product.variants.length > 1 ? (
            <p className="variant-picker__stock" aria-live="polite">
              {lowStockText(purchase.chosen.totalStock)}
            </p>
          ) : null}
        </AddToCartForm>
        <BackInStockForm
          productId={product._id}
          variants={product.variants}
          waitingVariantIds={product.shopper?.waitingVariantIds ?? []}
          formAction={formAction}
          idPrefix={idPrefix}
        />
        <section className="product-reviews" aria-labelledby={`reviews-${product._id}`}>
          <Heading className="product-details__heading" id={`reviews-${product._id}`}>
            Reviews
            {product.reviewCount > 0 ? <span className="muted"> ({product.reviewCount})</span> : null}
          </Heading>
          {product.reviews.length ? (
            <ul className="review-list">
              {product.reviews.map((review) => (
                <li key={review._id} className="review">
                  <span className="review__avatar" aria-hidden="true">
                    {review.userName.trim().charAt(0).toUpperCase() || "U"}
                  </span>
                  <div>
                    <p className="review__author">{review.userName}</p>
                    <StarRating value={review.reviewValue} size="sm" />
                    <p className="review__message">{review.reviewMessage}</p>
                  </div>
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted">No Reviews</p>
          )}
        </section>
        <section className="product-write-review" aria-labelledby={`write-review-${product._id}`}>
          <Heading className="product-details__heading" id={`write-review-${product._id}`}>
            Write a review
          </Heading>
          {visitor ? (
            <p className="muted">
              <PlainLink
                to={`/auth/login?${new URLSearchParams({ redirectTo: `${location.pathname}${location.search}` })}`}
              >
                Sign in
              </PlainLink>{" "}
              to write a review.
            </p>
          ) : (
            // A fresh form after each navigation: a saved review leaves an empty box behind.
            <ReviewForm
              key={location.key}
              productId={product._id}
              formAction={formAction}
              lastResult={reviewResult}
            />
          )}
        </section>
      </div>
    </div>
  );
}

/**
 * The variant the shopper has chosen in the picker (with JavaScript: the
 * price and "Only n left" follow it), and the server's "Please choose a size"
 * until a choice is made. A product with one variant has it chosen from the
 * start; with several, nothing is chosen for the shopper, even when only one
 * is in stock.
 */
function useVariantChoice(product: ProductJson, chooseRefused: boolean, urlVariant: string | null) {
  const fromUrl = product.variants.find((variant) => variant._id === urlVariant && variant.totalStock > 0);
  const [chosenId, setChosenId] = useState<string | null>(
    product.variants.length === 1 ? (product.variants[0]?._id ?? null) : (fromUrl?._id ?? null),
  );
  // The colour chosen so far (before a size, too): the gallery shows its pictures.
  const [colour, setColour] = useState<string | null>(fromUrl?.colour ?? null);
  const chosen = product.variants.find((variant) => variant._id === chosenId) ?? null;
  return {
    chosen,
    error: chooseRefused && !chosen ? chooseMessage(product.variants) : null,
    choose: setChosenId,
    colour,
    chooseColour: setColour,
  };
}

/** The product's facts (such as its material) as a list of label and value, when it has any. */
function ProductFacts({ product }: { product: ProductJson }) {
  const facts = productFacts(product);
  if (!facts.length) return null;
  return (
    <dl className="product-details__facts">
      {facts.map((fact) => (
        <div key={fact.label}>
          <dt>{fact.label}</dt>
          <dd>{fact.value}</dd>
        </div>
      ))}
    </dl>
  );
}

type ProductModalComponent = typeof ProductModalType;
/** Mantine's modal, once a dialog has loaded it (a later dialog shows it at once). */
let loadedModal: ProductModalComponent | null = null;

/** Where the focus was in the server's plain dialog when the Modal replaced it. */
type FocusPlace = { kind: "close" } | { kind: "body"; index: number };

/** What the keyboard reaches in a dialog (the same in both versions: they render the same body). */
const FOCUSABLE = "a[href], button, input, select, textarea, [tabindex]:not([tabindex='-1'])";

function focusPlaceOf(focused: EventTarget | null, dialog: HTMLElement): FocusPlace | null {
  if (!(focused instanceof HTMLElement) || !dialog.contains(focused)) return null;
  if (focused.closest(".dialog-close")) return { kind: "close" };
  const body = dialog.querySelector("[data-dialog-body]");
  const index = body ? [...body.querySelectorAll(FOCUSABLE)].indexOf(focused) : -1;
  return index >= 0 ? { kind: "body", index } : null;
}

/**
 * Where the keyboard focus is in the plain dialog, kept up to date by its
 * focus events until the very commit that replaces it (the Modal reads it as
 * it mounts). Focus that leaves for another element forgets it; focus lost to
 * the page (the control removed, a click on the overlay) keeps the last place.
 */
function usePlainDialogFocus(plainDialog: RefObject<HTMLElement>) {
  const place = useRef<FocusPlace | null>(null);
  useEffect(() => {
    const element = plainDialog.current;
    if (!element) return;
    place.current = focusPlaceOf(document.activeElement, element);
    const onFocusIn = (event: FocusEvent) => (place.current = focusPlaceOf(event.target, element));
    const onFocusOut = (event: FocusEvent) => {
      if (event.relatedTarget && !element.contains(event.relatedTarget as Node)) place.current = null;
    };
    element.addEventListener("focusin", onFocusIn);
    element.addEventListener("focusout", onFocusOut);
    return () => {
      element.removeEventListener("focusin", onFocusIn);
      element.removeEventListener("focusout", onFocusOut);
    };
  }, [plainDialog]);
  return place;
}

/** The same place in the Modal's content (see ProductModal's `initialFocus`). */
function elementAt(place: FocusPlace, content: HTMLElement): HTMLElement | null {
  if (place.kind === "close") return content.querySelector<HTMLElement>(".dialog-close");
  const body = content.querySelector("[data-dialog-body]");
  return body?.querySelectorAll<HTMLElement>(FOCUSABLE)[place.index] ?? null;
}

/**
 * Mantine's Modal for the product dialog, loaded with its styles when a dialog first mounts:
 * null until then (and while the server's HTML is hydrated, so that both agree).
 */
function useProductModal(wanted: boolean): ProductModalComponent | null {
  const hydrated = useHydrated();
  // A function in state is kept through an initializer (useState would call a component given directly).
  const [modal, setModal] = useState<ProductModalComponent | null>(() => (hydrated ? loadedModal : null));
  useEffect(() => {
    if (modal || !wanted) return;
    let mounted = true;
    void withMantineOverlayStyles(import("./ProductModal")).then((module) => {
      loadedModal = module.default;
      if (mounted) setModal(() => module.default);
    });
    return () => {
      mounted = false;
    };
  }, [modal, wanted]);
  return wanted ? modal : null;
}

/** Whether a field of `element` holds something other than what the server rendered. */
function hasEdits(element: HTMLElement): boolean {
  return [...element.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>("input, textarea")].some(
    (field) =>
      field instanceof HTMLInputElement && (field.type === "radio" || field.type === "checkbox")
        ? field.checked !== field.defaultChecked
        : field.value !== field.defaultValue,
  );
}

/**
 * False once the shopper has started filling in the server's plain dialog
 * (stars picked, a review typed, before or after hydration): swapping it for
 * the Mantine Modal then would mount new, empty fields in its place. The plain
 * dialog works as it is (Escape closes it too), so it stays.
 */
function useSwapAllowed(plainDialog: RefObject<HTMLElement>): boolean {
  const [allowed, setAllowed] = useState(true);
  useEffect(() => {
    const element = plainDialog.current;
    if (!element) return;
    if (hasEdits(element)) {
      setAllowed(false);
      return;
    }
    const keep = () => setAllowed(false);
    element.addEventListener("input", keep);
    element.addEventListener("change", keep);
    return () => {
      element.removeEventListener("input", keep);
      element.removeEventListener("change", keep);
    };
  }, [plainDialog]);
  return allowed;
}

/**
 * The details as a dialog whose state is the URL (`?product=ID`): rendered
 * open on the server as a plain overlay, so it works without JavaScript; once
 * scripts run it becomes a Mantine Modal (focus trap, Escape), loaded on
 * demand, that closes by navigating to `closeHref` — unless the shopper has
 * already started filling in the plain one (useSwapAllowed). Escape also
 * closes the plain one.
 */
export function ProductDialog({
  product,
  closeHref,
  formAction,
  reviewResult,
  chooseRefused = false,
}: {
  product: ProductDetailsData;
  closeHref: string;
  formAction: string;
  reviewResult?: SubmissionResult<string[]>;
  chooseRefused?: boolean;
}) {
  const navigate = useNavigate();
  const plainDialog = useRef<HTMLElement>(null);
  const Modal = useProductModal(useSwapAllowed(plainDialog));
  // Where the focus was in the plain dialog: the Modal that replaces it keeps it there instead of moving
  // it to its first stop under a keyboard user's hands.
  const plainFocus = usePlainDialogFocus(plainDialog);
  const close = () => navigate(closeHref, { preventScrollReset: true });
  const plain = !Modal;
  useEffect(() => {
    if (!plain) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === "Escape") navigate(closeHref, { preventScrollReset: true });
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [plain, navigate, closeHref]);

  const closeLink = (
    <Link to={closeHref} preventScrollReset className="dialog-close" aria-label="Close">
      <span aria-hidden="true">×</span>
    </Link>
  );
  const body = (
    <>
      <ProductDetails
        product={product}
        formAction={formAction}
        reviewResult={reviewResult}
        titleAs={null}
        chooseRefused={chooseRefused}
      />
      <p className="product-dialog__more">
        <Link to={`/shop/product/${product._id}`}>Open the product page</Link>
      </p>
    </>
  );
  if (Modal) {
    return (
      <Modal
        title={product.title}
        onClose={close}
        closeLink={closeLink}
        initialFocus={(content) => (plainFocus.current ? elementAt(plainFocus.current, content) : null)}
      >
        <div data-dialog-body>{body}</div>
      </Modal>
    );
  }
  return (
    <div className="plain-dialog">
      <div className="plain-dialog__overlay" />
      <div className="plain-dialog__inner">
        <section
          ref={plainDialog}
          role="dialog"
          aria-modal="true"
          aria-label={product.title}
          className="plain-dialog__content product-dialog"
          data-testid="product-dialog"
        >
          <header className="plain-dialog__header">
            <h2 className="product-dialog__title">{product.title}</h2>
            {closeLink}
          </header>
          <div className="plain-dialog__body" data-dialog-body>
            {body}
          </div>
        </section>
      </div>
    </div>
  );
}
