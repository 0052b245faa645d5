import { Link } from "@remix-run/react";
import { BRAND_LABELS, CATEGORY_LABELS } from "~/lib/catalog-options";
import { productBadge, type ProductCardData } from "~/lib/product-display";
import { AddToCartForm } from "./AddToCartForm";
import { ProductPrices } from "./ProductPrices";

/**
 * One product in a grid. Deliberately plain markup (the grid repeats it 24
 * times and server rendering is the cost centre): the title link stretches
 * over the whole card and opens the details dialog.
 */
export function ProductCard({
  product,
  detailsHref,
  formAction,
  eager = false,
}: {
  product: ProductCardData;
  detailsHref: string;
  formAction: string;
  /** Above the fold: load the image at once instead of lazily. */
  eager?: boolean;
}) {
  const badge = productBadge(product);
  return (
    <article className="product-card">
      <div className="product-card__media">
        <img
          src={product.image}
          alt={product.title}
          width={300}
          height={300}
          loading={eager ? "eager" : "lazy"}
          // Above the fold, the first image is the page's largest paint (LCP): fetch it first.
          // React 18 passes the attribute through only in lower case.
          {...(eager ? { fetchpriority: "high" } : {})}
          decoding={eager ? undefined : "async"}
        />
        {badge ? <span className={`product-badge product-badge--${badge.tone}`}>{badge.label}</span> : null}
      </div>
      <div className="product-card__body">
        <h3 className="product-card__title">
          <Link to={detailsHref} preventScrollReset className="product-card__link">
            {product.title}
          </Link>
        </h3>
        <p className="product-card__meta">
          <span>{CATEGORY_LABELS[product.category]}</span>
          <span>{BRAND_LABELS[product.brand]}</span>
        </p>
        <ProductPrices price={product.price} salePrice={product.salePrice} className="product-card__prices" />
      </div>
      <AddToCartForm
        productId={product._id}
        productTitle={product.title}
        totalStock={product.totalStock}
        formAction={formAction}
        className="product-card__action"
      />
    </article>
  );
}

/** The product grid; the first row loads its images at once. */
export function ProductGrid({
  products,
  detailsHref,
  formAction,
  eagerCount = 4,
}: {
  products: ProductCardData[];
  detailsHref: (productId: string) => string;
  formAction: string;
  eagerCount?: number;
}) {
  return (
    <div className="product-grid">
      {products.map((product, index) => (
        <ProductCard
          key={product._id}
          product={product}
          detailsHref={detailsHref(product._id)}
          formAction={formAction}
          eager={index < eagerCount}
        />
      ))}
    </div>
  );
}
