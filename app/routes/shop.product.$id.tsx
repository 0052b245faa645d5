import {
  data,
  isRouteErrorResponse,
  Link,
  type LoaderFunctionArgs,
  type MetaFunction,
  useLoaderData,
  useRouteError,
} from "react-router";
import { FlashToast } from "~/components/FlashToast";
import { ProductDetails } from "~/components/ProductDetails";
import { useStorefrontPage } from "~/components/useStorefrontPage";
import { shopperOrVisitor } from "~/web/auth.server";
import { BRAND_LABELS, CATEGORY_LABELS } from "~/lib/shared/catalog-options";
import { centsToDecimal, toCents } from "~/lib/shared/money";
import { useNonce } from "~/lib/shared/nonce";
import { payablePrice } from "~/lib/shared/product-display";
import { storefrontAction } from "~/web/storefront-action.server";
import { withShopperState } from "~/web/alert-actions.server";
import { showsProducts } from "~/web/page-cache.server";
import { publicUrl } from "~/web/canonical.server";
import { canonicalLink, productPagePath } from "~/lib/shared/canonical";
import { payPrice } from "~/lib/shared/variants";
import { getProductDetails, type ProductDetails as Details } from "~/services/catalog.server";
import { revalidateAfterRefusal } from "~/lib/shared/revalidation";

export const shouldRevalidate = revalidateAfterRefusal;

const IN_STOCK = "https://schema.org/InStock";
const OUT_OF_STOCK = "https://schema.org/OutOfStock";

/**
 * schema.org Product data for search engines: the product's price (its cheapest size's) and availability, its
 * pictures, brand and rating, and each size and colour as a variant with its own SKU, price and stock.
 */
function productJsonLd(product: Details, url: string) {
  const images = [...new Set([product.image, ...product.images.map((image) => image.url)])].map(publicUrl);
  const brand = { "@type": "Brand", name: BRAND_LABELS[product.brand] };
  const offer = (price: number, inStock: boolean) => ({
    "@type": "Offer",
    url,
    priceCurrency: "USD",
    price: centsToDecimal(toCents(price)),
    availability: inStock ? IN_STOCK : OUT_OF_STOCK,
  });
  // A product without sizes or colours has one variant of its own: the product's offer says it all.
  const variants = product.variants.filter((variant) => variant.size !== null || variant.colour !== null);
  return {
    "@context": "https://schema.org",
    "@type": "Product",
    "@id": url,
    name: product.title,
    description: product.description,
    image: images,
    sku: product._id,
    category: CATEGORY_LABELS[product.category],
    brand,
    offers: offer(payablePrice(product), product.totalStock > 0),
    ...(variants.length
      ? {
          hasVariant: variants.map((variant) => {
            const picture = product.images.find((image) => variant.colour && image.colour === variant.colour);
            return {
              "@type": "Product",
              name: [product.title, variant.size, variant.colour].filter(Boolean).join(" · "),
              sku: variant.sku,
              ...(variant.size ? { size: variant.size } : {}),
              ...(variant.colour ? { color: variant.colour } : {}),
              image: picture ? publicUrl(picture.url) : images[0],
              brand,
              offers: { ...offer(payPrice(variant), variant.totalStock > 0), sku: variant.sku },
            };
          }),
        }
      : {}),
    ...(product.reviewCount > 0
      ? {
          aggregateRating: {
            "@type": "AggregateRating",
            ratingValue: product.averageReview.toFixed(2),
            reviewCount: product.reviewCount,
            bestRating: 5,
            worstRating: 1,
          },
        }
      : {}),
  };
}

/** The canonical page of one product: the details dialog's content as a page of its own. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await shopperOrVisitor(request);
  const id = params.id ?? "";
  const product = await withShopperState(user?.id ?? null, id, getProductDetails(id));
  if (!product) throw new Response("Product not found", { status: 404, statusText: "Not Found" });
  showsProducts([product]);
  const canonicalUrl = publicUrl(productPagePath(product._id));
  return data({ product, canonicalUrl, jsonLd: productJsonLd(product, canonicalUrl) });
}

export const action = storefrontAction;

export const meta: MetaFunction<typeof loader> = ({ data }) => {
  if (!data) return [{ title: "Product not found · ECommerce Shopping" }];
  return [
    { title: `${data.product.title} · ECommerce Shopping` },
    { name: "description", content: data.product.description.slice(0, 160) },
    canonicalLink(data.canonicalUrl),
    { property: "og:type", content: "product" },
    { property: "og:title", content: data.product.title },
  ];
};

export default function ProductPage() {
  const { product, jsonLd } = useLoaderData<typeof loader>();
  const nonce = useNonce();
  const page = useStorefrontPage(product._id);
  return (
    <div className="product-page">
      <FlashToast toast={page.toast} />
      <nav className="breadcrumbs" aria-label="Breadcrumb">
        <ol>
          <li>
            <Link to="/shop/listing">Products</Link>
          </li>
          <li>
            <Link to={`/shop/listing?category=${product.category}`}>{CATEGORY_LABELS[product.category]}</Link>
          </li>
          <li aria-current="page">{product.title}</li>
        </ol>
      </nav>
      <ProductDetails
        product={product}
        formAction={page.formAction}
        reviewResult={page.reviewResult}
        chooseRefused={page.chooseFor === product._id}
        titleAs="h1"
      />
      <script
        type="application/ld+json"
        nonce={nonce}
        suppressHydrationWarning
        // "<" is escaped so that no product text can close the script element.
        dangerouslySetInnerHTML={{ __html: JSON.stringify(jsonLd).replace(/</g, "\\u003c") }}
      />
    </div>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <section className="status-page">
      <h1>{notFound ? "Product not found" : "Something went wrong"}</h1>
      <p>
        {notFound ? "page doesn't exists" : "We could not show this product. Please try again in a moment."}
      </p>
      <Link to="/shop/listing">Browse all products</Link>
    </section>
  );
}
