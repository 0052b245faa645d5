import {
  data,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  useLoaderData,
} from "react-router";
import { Banner } from "~/components/Banner";
import { FlashToast } from "~/components/FlashToast";
import { CARD_SIZES, ProductGrid } from "~/components/ProductCard";
import { ProductDialog } from "~/components/ProductDetails";
import { BrandTiles, CategoryTiles } from "~/components/ShopTiles";
import { PlainLink } from "~/components/PlainLink";
import { useStorefrontPage } from "~/components/useStorefrontPage";
import { shopperOrVisitor } from "~/web/auth.server";
import { storefrontAction } from "~/web/storefront-action.server";
import { getProductDetails } from "~/services/catalog.server";
import { homeCatalogue } from "~/web/catalog-reads.server";
import { showsProducts } from "~/web/page-cache.server";
import { publicUrl } from "~/web/canonical.server";
import { canonicalLink, productPagePath } from "~/lib/shared/canonical";
import homeStyles from "~/styles/home.css?url";
import { revalidateAfterRefusal } from "~/lib/shared/revalidation";

export const shouldRevalidate = revalidateAfterRefusal;

/** How many products "Feature Products" shows (the first ones in the default sort). */
const FEATURE_PRODUCT_COUNT = 12;

export async function loader({ request }: LoaderFunctionArgs) {
  await shopperOrVisitor(request);
  const productId = new URL(request.url).searchParams.get("product");
  const [catalogue, details] = await Promise.all([
    homeCatalogue(FEATURE_PRODUCT_COUNT),
    productId ? getProductDetails(productId) : Promise.resolve(null),
  ]);
  showsProducts(catalogue.products, details);
  const canonicalUrl = publicUrl(details ? productPagePath(details._id) : "/shop/home");
  return data({ ...catalogue, details, canonicalUrl });
}

export const action = storefrontAction;

export const links: LinksFunction = () => [{ rel: "stylesheet", href: homeStyles }];

export const meta: MetaFunction<typeof loader> = ({ data }) => {
  if (data?.details) {
    return [
      { title: `${data.details.title} · ECommerce Shopping` },
      { name: "description", content: data.details.description.slice(0, 160) },
      canonicalLink(data.canonicalUrl),
    ];
  }
  return [
    { title: "ECommerce Shopping: clothing, footwear and accessories" },
    {
      name: "description",
      content:
        "Shop men's, women's and kids' clothing, footwear and accessories from Nike, Adidas, Puma, Levi's, Zara and H&M.",
    },
    ...(data ? [canonicalLink(data.canonicalUrl)] : []),
  ];
};

export default function HomePage() {
  const { featureImages, products, details } = useLoaderData<typeof loader>();
  const page = useStorefrontPage(details?._id);
  return (
    <>
      {details ? (
        <ProductDialog
          product={details}
          closeHref={page.closeHref}
          formAction={page.formAction}
          reviewResult={page.reviewResult}
          chooseRefused={page.chooseFor === details._id}
        />
      ) : null}
      <FlashToast toast={page.toast} />
      <h1 className="visually-hidden">ECommerce Shopping</h1>
      <Banner images={featureImages} />
      <section className="home-section" aria-labelledby="shop-by-category">
        <h2 id="shop-by-category" className="section-heading">
          Shop by category
        </h2>
        <CategoryTiles />
      </section>
      <section className="home-section home-section--muted" aria-labelledby="shop-by-brand">
        <h2 id="shop-by-brand" className="section-heading">
          Shop by Brand
        </h2>
        <BrandTiles />
      </section>
      <section className="home-section" aria-labelledby="feature-products">
        <h2 id="feature-products" className="section-heading">
          Feature Products
        </h2>
        <ProductGrid
          products={products}
          detailsHref={page.detailsHref}
          redirectTo={page.formAction}
          // Below the banner, the categories and the brands: never on the first screen.
          eagerCount={0}
          firstIsLargest={false}
          sizes={CARD_SIZES.fullWidth}
        />
        <p className="home-section__more">
          <PlainLink to="/shop/listing" className="sf-button">
            View all products
          </PlainLink>
        </p>
      </section>
    </>
  );
}
