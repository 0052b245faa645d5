import { getFormProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Modal } from "@mantine/core";
import { Form, Link, useLocation, useNavigate } from "@remix-run/react";
import { useState } from "react";
import { BRAND_LABELS, CATEGORY_LABELS } from "~/lib/catalog-options";
import { formatRating, productBadge, type ProductJson } from "~/lib/product-display";
import { REVIEW_MESSAGE_MAX_LENGTH, type ReviewInput } from "~/lib/review-schema";
import { useHydrated } from "~/lib/use-hydrated";
import { AddToCartForm } from "./AddToCartForm";
import { ProductPrices } from "./ProductPrices";
import { StarPicker, StarRating } from "./StarRating";

/** The product as the details show it (the loader's shape, after JSON). */
export interface ProductDetailsData extends ProductJson {
  reviewCount: number;
  reviews: {
    _id: string;
    userName: string;
    reviewMessage: string;
    reviewValue: number;
    createdAt: string;
  }[];
}

/**
 * "Write a review": a star picker made of radio inputs, a text box and
 * Submit. The server validates (its messages come back inline and as a
 * toast); with JavaScript, Submit stays disabled while the text is blank.
 */
function ReviewForm({
  productId,
  formAction,
  lastResult,
}: {
  productId: string;
  formAction: string;
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const hydrated = useHydrated();
  const [form, fields] = useForm<ReviewInput>({ id: `review-${productId}`, lastResult });
  const [message, setMessage] = useState(String(fields.reviewMessage.initialValue ?? ""));
  const { key: _key, ...textareaProps } = getTextareaProps(fields.reviewMessage);
  const ratingValue = Number(fields.reviewValue.initialValue);
  return (
    <Form
      method="post"
      action={formAction}
      preventScrollReset
      className="review-form"
      {...getFormProps(form)}
      noValidate
    >
      <input type="hidden" name="intent" value="review" />
      <input type="hidden" name="productId" value={productId} />
      {form.errors?.length ? (
        <p className="form-error" id={form.errorId} role="alert">
          {form.errors[0]}
        </p>
      ) : null}
      <StarPicker
        name={fields.reviewValue.name}
        defaultValue={Number.isInteger(ratingValue) ? ratingValue : undefined}
        errorId={fields.reviewValue.errorId}
        invalid={Boolean(fields.reviewValue.errors?.length)}
      />
      {fields.reviewValue.errors?.length ? (
        <p className="form-error" id={fields.reviewValue.errorId}>
          {fields.reviewValue.errors[0]}
        </p>
      ) : null}
      <label htmlFor={fields.reviewMessage.id} className="visually-hidden">
        Your review
      </label>
      <textarea
        {...textareaProps}
        value={message}
        defaultValue={undefined}
        onChange={(event) => setMessage(event.currentTarget.value)}
        placeholder="Write a review..."
        maxLength={REVIEW_MESSAGE_MAX_LENGTH}
        rows={3}
        className="sf-textarea"
      />
      {fields.reviewMessage.errors?.length ? (
        <p className="form-error" id={fields.reviewMessage.errorId}>
          {fields.reviewMessage.errors[0]}
        </p>
      ) : null}
      <button
        type="submit"
        className="sf-button sf-button--primary"
        disabled={hydrated && message.trim() === ""}
      >
        Submit
      </button>
    </Form>
  );
}

/**
 * Everything about one product (SPEC §2 Product details): image, title,
 * description, prices, the average rating with two decimals, add to cart,
 * the reviews and "Write a review". Used by the dialog and the product page.
 */
export function ProductDetails({
  product,
  formAction,
  reviewResult,
  titleAs,
}: {
  product: ProductDetailsData;
  formAction: string;
  reviewResult?: SubmissionResult<string[]>;
  /** "h1" on the product page; null in the dialog, whose header shows the title. */
  titleAs: "h1" | null;
}) {
  const location = useLocation();
  const Heading = titleAs === "h1" ? "h2" : "h3";
  const badge = productBadge(product);
  return (
    <div className="product-details">
      <div className="product-details__media">
        <img src={product.image} alt={product.title} width={600} height={600} decoding="async" />
        {badge ? <span className={`product-badge product-badge--${badge.tone}`}>{badge.label}</span> : null}
      </div>
      <div className="product-details__info">
        {titleAs === "h1" ? <h1 className="product-details__title">{product.title}</h1> : null}
        <p className="product-details__meta">
          <Link to={`/shop/listing?category=${product.category}`}>{CATEGORY_LABELS[product.category]}</Link>
          <Link to={`/shop/listing?brand=${encodeURIComponent(product.brand)}`}>
            {BRAND_LABELS[product.brand]}
          </Link>
        </p>
        <p className="product-details__description">{product.description}</p>
        <ProductPrices
          price={product.price}
          salePrice={product.salePrice}
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
          formAction={formAction}
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
          {/* A fresh form after each navigation: a saved review leaves an empty box behind. */}
          <ReviewForm
            key={location.key}
            productId={product._id}
            formAction={formAction}
            lastResult={reviewResult}
          />
        </section>
      </div>
    </div>
  );
}

/**
 * The details as a dialog whose state is the URL (`?product=ID`): rendered
 * open on the server, so it works without JavaScript; with JavaScript it is a
 * Mantine Modal (focus trap, Escape) that closes by navigating to `closeHref`.
 * Not in a portal, so that the server's HTML and the hydrated page agree.
 */
export function ProductDialog({
  product,
  closeHref,
  formAction,
  reviewResult,
}: {
  product: ProductDetailsData;
  closeHref: string;
  formAction: string;
  reviewResult?: SubmissionResult<string[]>;
}) {
  const navigate = useNavigate();
  return (
    <Modal.Root
      opened
      onClose={() => navigate(closeHref, { preventScrollReset: true })}
      withinPortal={false}
      size="56rem"
      padding="lg"
    >
      <Modal.Overlay />
      {/* Mantine names the dialog after its title only once scripts run: aria-label names it in the server's HTML too. */}
      <Modal.Content className="product-dialog" data-testid="product-dialog" aria-label={product.title}>
        <Modal.Header>
          <Modal.Title className="product-dialog__title">{product.title}</Modal.Title>
          <Link to={closeHref} preventScrollReset className="dialog-close" aria-label="Close">
            <span aria-hidden="true">×</span>
          </Link>
        </Modal.Header>
        <Modal.Body>
          <ProductDetails
            product={product}
            formAction={formAction}
            reviewResult={reviewResult}
            titleAs={null}
          />
          <p className="product-dialog__more">
            <Link to={`/shop/product/${product._id}`}>Open the product page</Link>
          </p>
        </Modal.Body>
      </Modal.Content>
    </Modal.Root>
  );
}
