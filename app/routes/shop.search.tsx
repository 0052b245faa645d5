import {
  data,
  Form,
  type LoaderFunctionArgs,
  type MetaFunction,
  useLoaderData,
  useNavigate,
  useNavigation,
} from "react-router";
import { useEffect, useRef, useState } from "react";
import { FlashToast } from "~/components/FlashToast";
import { Pagination } from "~/components/ListingControls";
import { CARD_SIZES, ProductGrid } from "~/components/ProductCard";
import { ProductDialog } from "~/components/ProductDetails";
import { useStorefrontPage } from "~/components/useStorefrontPage";
import { shopperOrVisitor } from "~/web/auth.server";
import { MAX_PAGE, PAGE_SIZE } from "~/lib/shared/listing-params";
import { paginationOf, wholeNumberUpTo } from "~/lib/shared/paging";
import { storefrontAction } from "~/web/storefront-action.server";
import { getProductDetails } from "~/services/catalog.server";
import { searchCards } from "~/web/catalog-reads.server";
import { showsProducts } from "~/web/page-cache.server";
import { withShopperState } from "~/web/alert-actions.server";
import { MAX_KEYWORD_LENGTH } from "~/lib/shared/listing-params";
import { revalidateAfterRefusal } from "~/lib/shared/revalidation";

export const shouldRevalidate = revalidateAfterRefusal;

/** SPEC §5/§9: with JavaScript, a search starts 1000 ms after typing stops, once the trimmed keyword is longer than 3 characters. */
const SEARCH_DEBOUNCE_MS = 1000;
const SEARCH_MIN_LENGTH = 4;

/**
 * /shop/search?keyword=…(&page=2)(&product=ID). Without JavaScript the form
 * is a GET form with a submit button; any keyword the shopper submits is searched.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await shopperOrVisitor(request);
  const params = new URL(request.url).searchParams;
  const keyword = (params.get("keyword") ?? "").trim().slice(0, MAX_KEYWORD_LENGTH);
  const page = wholeNumberUpTo(params.get("page"), MAX_PAGE) ?? 1;
  const productId = params.get("product");
  const [results, details] = await Promise.all([
    keyword ? searchCards(keyword, { page, limit: PAGE_SIZE }) : Promise.resolve(null),
    productId
      ? withShopperState(user?.id ?? null, productId, getProductDetails(productId))
      : Promise.resolve(null),
  ]);
  showsProducts(results?.products ?? [], details);
  return data({
    keyword,
    page,
    products: results?.products ?? [],
    pagination: results?.pagination ?? paginationOf({ page, limit: PAGE_SIZE }, 0),
    details,
  });
}

export const action = storefrontAction;

export const meta: MetaFunction<typeof loader> = ({ data }) => {
  if (data?.details) {
    return [
      { title: `${data.details.title} · ECommerce Shopping` },
      { name: "description", content: data.details.description.slice(0, 160) },
    ];
  }
  const keyword = data?.keyword;
  return [
    { title: keyword ? `Search: ${keyword} · ECommerce Shopping` : "Search Products · ECommerce Shopping" },
    {
      name: "description",
      content: "Search clothing, footwear and accessories by name, description, category or brand.",
    },
  ];
};

function searchHref(keyword: string, page = 1): string {
  const params = new URLSearchParams();
  if (keyword) params.set("keyword", keyword);
  if (page > 1) params.set("page", String(page));
  const query = params.toString();
  return query ? `/shop/search?${query}` : "/shop/search";
}

export default function SearchPage() {
  const { keyword, page, products, pagination, details } = useLoaderData<typeof loader>();
  const storefront = useStorefrontPage(details?._id);
  const navigate = useNavigate();
  const navigation = useNavigation();
  const [value, setValue] = useState(keyword);
  const typed = useRef(false);

  // The URL changed under us (back button, a menu link): show its keyword.
  useEffect(() => {
    if (!typed.current) setValue(keyword);
  }, [keyword]);

  // Debounced search as the shopper types; shorter keywords clear the results.
  useEffect(() => {
    if (!typed.current) return;
    const trimmed = value.trim();
    if (trimmed.length < SEARCH_MIN_LENGTH) {
      if (keyword) navigate(searchHref(""), { replace: true, preventScrollReset: true });
      return;
    }
    if (trimmed === keyword) return;
    const timer = window.setTimeout(() => {
      navigate(searchHref(trimmed), { replace: true, preventScrollReset: true });
    }, SEARCH_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [value, keyword, navigate]);

  const searching = navigation.state === "loading" && navigation.location.pathname === "/shop/search";
  return (
    <>
      {details ? (
        <ProductDialog
          product={details}
          closeHref={storefront.closeHref}
          formAction={storefront.formAction}
          reviewResult={storefront.reviewResult}
          chooseRefused={storefront.chooseFor === details._id}
        />
      ) : null}
      <FlashToast toast={storefront.toast} />
      <div className="search-page">
        <h1 className="page-heading">Search Products</h1>
        <Form
          method="get"
          action="/shop/search"
          role="search"
          className="search-form"
          onSubmit={() => {
            typed.current = false;
          }}
        >
          <label htmlFor="keyword" className="visually-hidden">
            Search products
          </label>
          <input
            id="keyword"
            name="keyword"
            type="search"
            className="sf-input"
            placeholder="Search Products..."
            value={value}
            maxLength={MAX_KEYWORD_LENGTH}
            autoComplete="off"
            onChange={(event) => {
              typed.current = true;
              setValue(event.currentTarget.value);
            }}
          />
          <button type="submit" className="sf-button sf-button--primary">
            Search
          </button>
        </Form>
        <div aria-live="polite" aria-busy={searching || undefined}>
          {products.length ? (
            <>
              <h2 className="visually-hidden">Results</h2>
              <p className="listing__count" data-testid="result-count">
                {pagination.total} {pagination.total === 1 ? "result" : "results"} for “{keyword}”
              </p>
              <ProductGrid
                products={products}
                detailsHref={storefront.detailsHref}
                redirectTo={storefront.formAction}
                sizes={CARD_SIZES.fullWidth}
              />
              <Pagination
                page={page}
                pages={pagination.pages}
                hrefFor={(number) => searchHref(keyword, number)}
              />
            </>
          ) : keyword ? (
            <p className="empty-state empty-state--large">No result found!</p>
          ) : (
            // No search has run yet (an empty box, or fewer than 4 characters typed): a prompt, not a verdict.
            <p className="empty-state empty-state--large" data-testid="search-prompt">
              Type at least {SEARCH_MIN_LENGTH} characters to search by name, description, category or brand.
            </p>
          )}
        </div>
      </div>
    </>
  );
}
