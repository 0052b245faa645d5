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
import { getConfig } from "~/lib/server/config.server";
import { centsToDecimal, toCents } from "~/lib/shared/money";
import { useNonce } from "~/lib/shared/nonce";
import { payablePrice } from "~/lib/shared/product-display";
import { storefrontAction } from "~/web/storefront-action.server";
import { withShopperState } from "~/web/alert-actions.server";
import { showsProducts } from "~/web/page-cache.server";
import { getProductDetails, type ProductDetails as Details } from "~/services/catalog.server";
import { revalidateAfterRefusal } from "~/lib/shared/revalidation";

export const shouldRevalidate = revalidateAfterRefusal;

/** schema.org Product data for search engines: price, availability and rating. */
function productJsonLd(product: Details, url: string, appUrl: string) {
  return {
    "@context": "https://schema.org",
    "@type": "Product",
    "@id": url,
    name: product.title,
    description: product.description,
    image: new URL(product.image, `${appUrl}/`).toString(),
    sku: product._id,
    category: CATEGORY_LABELS[product.category],
    brand: { "@type": "Brand", name: BRAND_LABELS[product.brand] },
    offers: {
      "@type": "Offer",
      url,
      priceCurrency: "USD",
      price: centsToDecimal(toCents(payablePrice(product))),
      availability: product.totalStock > 0 ? "https://schema.org/InStock" : "https://schema.org/OutOfStock",
    },
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
  const { appUrl } = getConfig();
  const canonicalUrl = `${appUrl}/shop/product/${product._id}`;
  return data({ product, canonicalUrl, jsonLd: productJsonLd(product, canonicalUrl, appUrl) });
}

export const action = storefrontAction;

export const meta: MetaFunction<typeof loader> = ({ data }) => {
  if (!data) return [{ title: "Product not found · ECommerce Shopping" }];
  return [
    { title: `${data.product.title} · ECommerce Shopping` },
    { name: "description", content: data.product.description.slice(0, 160) },
    { tagName: "link", rel: "canonical", href: data.canonicalUrl },
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
