import {
  data,
  Link,
  type LoaderFunctionArgs,
  type MetaFunction,
  redirect,
  useLoaderData,
} from "react-router";
import { useEffect } from "react";
import { FlashToast } from "~/components/FlashToast";
import { ActiveFilters, FilterForm, filterCount, Pagination, SortMenu } from "~/components/ListingControls";
import { ProductGrid } from "~/components/ProductCard";
import { ProductDialog } from "~/components/ProductDetails";
import { useStorefrontPage } from "~/components/useStorefrontPage";
import { shopperOrVisitor } from "~/web/auth.server";
import { BRAND_LABELS, CATEGORY_LABELS } from "~/lib/shared/catalog-options";
import { listingHref, PAGE_SIZE, parseListingState, type ListingState } from "~/lib/shared/listing-params";
import { storeFilters } from "~/lib/shared/stored-filters";
import { storefrontAction } from "~/web/storefront-action.server";
import { getProductDetails } from "~/services/catalog.server";
import { withShopperState } from "~/web/alert-actions.server";
import { listingCards } from "~/web/catalog-reads.server";
import { showsProducts } from "~/web/page-cache.server";
import { publicUrl } from "~/web/canonical.server";
import { canonicalLink, productPagePath } from "~/lib/shared/canonical";
import { revalidateAfterRefusal } from "~/lib/shared/revalidation";

export const shouldRevalidate = revalidateAfterRefusal;

/** The list filters a plain GET form sends as repeated names (size=M&size=L). */
const LIST_PARAMS = ["category", "brand", "size", "colour"];
/** The price bounds a plain GET form sends empty when left blank. */
const PRICE_PARAMS = ["minPrice", "maxPrice"];

/**
 * /shop/listing?category=men,women&brand=nike&size=M,L&colour=black&inStock=true
 * &minPrice=20&maxPrice=49.90&sortBy=price-hightolow&page=2 (&product=ID opens
 * the details dialog). Unknown or malformed values are ignored. A plain GET
 * form sends repeated names (size=M&size=L) and empty price bounds: those are
 * redirected to the canonical URL.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await shopperOrVisitor(request);
  const params = new URL(request.url).searchParams;
  const state = parseListingState(params);
  const productId = params.get("product");
  if (
    LIST_PARAMS.some((name) => params.getAll(name).length > 1) ||
    PRICE_PARAMS.some((name) => params.get(name) === "")
  ) {
    throw redirect(listingHref(state, productId ? { product: productId } : {}));
  }
  const [page, details] = await Promise.all([
    listingCards({ ...state, limit: PAGE_SIZE }),
    productId
      ? withShopperState(user?.id ?? null, productId, getProductDetails(productId))
      : Promise.resolve(null),
  ]);
  showsProducts(page.products, details);
  // The listing as its filters, sort and page make it; a product opened over it is that product's page.
  const canonicalUrl = publicUrl(details ? productPagePath(details._id) : listingHref(state));
  return data({ state, ...page, details, canonicalUrl });
}

export const action = storefrontAction;

function describeFilters(state: Pick<ListingState, "category" | "brand">): string {
  return [...state.category.map((c) => CATEGORY_LABELS[c]), ...state.brand.map((b) => BRAND_LABELS[b])].join(
    ", ",
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => {
  if (!data) return [{ title: "All Products · ECommerce Shopping" }];
  if (data.details) {
    return [
      { title: `${data.details.title} · ECommerce Shopping` },
      { name: "description", content: data.details.description.slice(0, 160) },
      canonicalLink(data.canonicalUrl),
    ];
  }
  const filters = describeFilters(data.state);
  const page = data.state.page > 1 ? ` · Page ${data.state.page}` : "";
  return [
    { title: `${filters ? `${filters} – ` : ""}All Products${page} · ECommerce Shopping` },
    {
      name: "description",
      content: `${data.pagination.total} ${filters ? `${filters} ` : ""}products: clothing, footwear and accessories, sorted and filtered your way.`,
    },
    canonicalLink(data.canonicalUrl),
  ];
};

export default function ListingPage() {
  const { state, products, pagination, optionCounts, details } = useLoaderData<typeof loader>();
  const page = useStorefrontPage(details?._id);
  const categoryKey = state.category.join(",");
  const brandKey = state.brand.join(",");
  const active = filterCount(state);
  useEffect(() => {
    storeFilters({
      category: categoryKey ? categoryKey.split(",") : [],
      brand: brandKey ? brandKey.split(",") : [],
    });
  }, [categoryKey, brandKey]);

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
      <div className="listing">
        {/*
          One filter form for both layouts: a column beside the results on wide screens; on a phone a panel that
          the "Filters" button opens (a checkbox and its label, so that it opens without JavaScript).
        */}
        <input
          type="checkbox"
          id="filters-open"
          className="listing__filters-open visually-hidden"
          aria-controls="listing-filters"
        />
        <div className="listing__toolbar">
          <h1 id="listing-heading" className="page-heading">
            All Products
          </h1>
          <div className="listing__tools">
            <span className="listing__count" data-testid="product-count">
              {pagination.total} {pagination.total === 1 ? "Product" : "Products"}
            </span>
            <SortMenu state={state} />
            <label htmlFor="filters-open" className="sf-button listing__filters-toggle">
              {active ? `Filters (${active})` : "Filters"}
            </label>
          </div>
        </div>
        <aside id="listing-filters" className="listing__filters" aria-labelledby="filters-heading">
          <h2 id="filters-heading" className="listing__filters-heading">
            Filters
          </h2>
          <FilterForm state={state} optionCounts={optionCounts} />
        </aside>
        <section className="listing__results" aria-labelledby="listing-heading">
          <ActiveFilters state={state} />
          {products.length ? (
            <>
              <h2 className="visually-hidden">Products</h2>
              <ProductGrid products={products} detailsHref={page.detailsHref} redirectTo={page.formAction} />
            </>
          ) : (
            <p className="empty-state">
              No products on this page. <Link to={listingHref({})}>Show all products</Link>
            </p>
          )}
          <Pagination
            page={state.page}
            pages={pagination.pages}
            hrefFor={(number) => listingHref({ ...state, page: number })}
          />
        </section>
      </div>
    </>
  );
}
