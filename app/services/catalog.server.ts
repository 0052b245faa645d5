import { QueryTypes, type Transaction } from "sequelize";
import type { Brand, Category, SortOption } from "~/lib/shared/catalog-options";
import { getDb } from "~/models/db.server";
import { prepared } from "~/models/prepared-statements.server";
import { paginationOf, type Pagination, type Paging } from "~/lib/shared/paging";
import { isUuid } from "~/lib/shared/uuid";
import {
  productColumnsSql,
  toProductJson,
  type ProductJson,
  type ProductReadRow,
} from "~/lib/shared/product";
import type { OptionCounts } from "~/lib/shared/variants";
import type { ListingFilters } from "~/lib/shared/listing-params";
import { listFeatureViews, type FeatureView } from "./features.server";
import type { ReviewJson } from "./reviews.server";

/**
 * The storefront's reads: the listing (filters, sort, pages), one product with
 * its reviews and the home banner (search: catalog-search.server.ts). Every function runs a fixed number
 * of SQL statements whatever the catalogue size, with `$n` bind parameters:
 * nothing a shopper types ever becomes SQL text.
 */

const PRODUCT_COLUMNS = productColumnsSql("p");

/** What `listing_counts` counts products by (db/migrations/0027-listing-counts.ts). */
const SIGNATURE = "p.category, p.brand, p.in_stock, p.sizes_in_stock, p.colours_in_stock";

/** Sorting by price uses the price the shopper pays; ties are broken by id so that pages never overlap. */
const ORDER_BY: Record<SortOption, string> = {
  "price-lowtohigh": "p.effective_price ASC, p.id ASC",
  "price-hightolow": "p.effective_price DESC, p.id ASC",
  "title-atoz": "p.title ASC, p.id ASC",
  "title-ztoa": "p.title DESC, p.id ASC",
};

/**
 * One product's row by `id` (an outer column), read for each row of a page
 * after the page's ids are found. OFFSET 0 keeps it a lateral lookup by
 * primary key: a prepared statement's generic plan, which does not know how
 * many ids the LIMIT lets through, would otherwise join by hashing the whole
 * catalogue.
 */
export const ROW_BY_ID = (id: string) =>
  `SELECT ${PRODUCT_COLUMNS} FROM products p WHERE p.id = ${id} OFFSET 0`;

export interface ProductPage {
  products: ProductJson[];
  pagination: Pagination;
}

/**
 * What a listing shows: the filters of lib/shared/listing-params.ts (sizes and
 * colours of a variant in stock, OR within one and AND between them; the
 * price the shopper pays for the cheapest variant, inclusive, in cents), its
 * sort and its page. Filters left out do not filter.
 */
export interface ListingInput extends Paging, Partial<Omit<ListingFilters, "category" | "brand">> {
  category: Category[];
  brand: Brand[];
  sortBy: SortOption;
}

type Facet = "size" | "colour";

/**
 * The WHERE conditions of a listing, binding values onto `bind`. `except`
 * leaves facets' own filters out (a facet's counts show what choosing another
 * value of it would find).
 */
function listingConditions(input: ListingInput, bind: unknown[], except: readonly Facet[] = []): string[] {
  const conditions: string[] = [];
  const add = (value: unknown, sql: (param: string) => string) => {
    bind.push(value);
    conditions.push(sql(`$${bind.length}`));
  };
  if (input.category.length) add(input.category, (param) => `p.category = ANY(${param}::text[])`);
  if (input.brand.length) add(input.brand, (param) => `p.brand = ANY(${param}::text[])`);
  if (input.size?.length && !except.includes("size"))
    add(input.size, (param) => `p.sizes_in_stock && ${param}::text[]`);
  if (input.colour?.length && !except.includes("colour"))
    add(input.colour, (param) => `p.colours_in_stock && ${param}::text[]`);
  if (input.inStock) conditions.push("p.in_stock");
  if (input.minPrice != null) add(input.minPrice / 100, (param) => `p.effective_price >= ${param}::numeric`);
  if (input.maxPrice != null) add(input.maxPrice / 100, (param) => `p.effective_price <= ${param}::numeric`);
  return conditions;
}

const whereOf = (conditions: string[]) => (conditions.length ? `WHERE ${conditions.join(" AND ")}` : "");

/**
 * Where a listing's numbers come from. Every filter but the price is a
 * condition on the "listing signature" (category, brand, in stock, sizes and
 * colours in stock), so without a price filter they are sums over
 * `listing_counts` (db/migrations/0027-listing-counts.ts), and with only
 * category and brand over the fewer rows of `product_counts`
 * (0009-product-counts.ts); both are kept exact by triggers in the transaction
 * of every change. A price range is counted over the products it holds.
 */
function countSource(input: ListingInput): { from: string; count: string } {
  if (input.minPrice != null || input.maxPrice != null) return { from: "products p", count: "count(*)" };
  return { from: "listing_counts p", count: "sum(p.products)" };
}

function filtersVariants(input: ListingInput): boolean {
  return Boolean(
    input.size?.length ||
    input.colour?.length ||
    input.inStock ||
    input.minPrice != null ||
    input.maxPrice != null,
  );
}

/**
 * The catalogue's reads go as prepared statements (prepared-statements.server.ts): every storefront page runs
 * one. Their texts vary only by which filters and which sort apply, never by a value.
 */
export function select<T extends object>(
  sql: string,
  bind: unknown[],
  transaction?: Transaction,
): Promise<T[]> {
  return getDb().sequelize.query<T>(prepared(sql), { bind, type: QueryTypes.SELECT, transaction });
}

export async function listProducts(input: ListingInput): Promise<ProductPage>;
export async function listProducts(
  input: ListingInput,
  options: { optionCounts: true },
): Promise<ProductPage & { optionCounts: OptionCounts }>;
/**
 * One page of the catalogue, the size of the whole result and (for the
 * listing page) the counts of its size and colour filters, in one statement.
 * The numbers come from the summaries of `countSource`, never from a count of
 * the catalogue. The page finds its ids in a listing index that covers every
 * filter but the price (an index-only scan: a deep page skips its earlier
 * rows in the index), then reads those rows alone with their variants and
 * pictures. The LEFT JOIN still answers the total for a page past the end.
 */
export async function listProducts(
  input: ListingInput,
  options: { optionCounts?: boolean } = {},
): Promise<ProductPage & { optionCounts?: OptionCounts }> {
  const bind: unknown[] = [];
  const where = whereOf(listingConditions(input, bind));
  const source = countSource(input);
  const counted = options.optionCounts
    ? `SELECT coalesce(sum(c.products) FILTER (WHERE c.facet = 'total'), 0)::int AS total,
              coalesce(json_agg(c) FILTER (WHERE c.facet <> 'total'), '[]'::json) AS "optionCounts"
         FROM (${countsSql(input, bind)}) c`
    : filtersVariants(input)
      ? `SELECT coalesce(${source.count}, 0)::int AS total FROM ${source.from} ${where}`
      : `SELECT coalesce(sum(p.products), 0)::int AS total FROM product_counts p ${where}`;
  const rows = await select<
    ((ProductReadRow & { total: number }) | { id: null; total: number }) & {
      optionCounts?: FacetRow[] | null;
    }
  >(
    `SELECT page.*, counted.*
       FROM (${counted}) counted
       LEFT JOIN (
         SELECT page_row.*, ids.position
           FROM (SELECT p.id, row_number() OVER (ORDER BY ${ORDER_BY[input.sortBy]}) AS position
                   FROM (SELECT p.id, p.effective_price, p.title FROM products p ${where}
                          ORDER BY ${ORDER_BY[input.sortBy]}
                          LIMIT $${bind.length + 1} OFFSET $${bind.length + 2}) p) ids
           CROSS JOIN LATERAL (${ROW_BY_ID("ids.id")}) page_row
       ) page ON true
      ORDER BY page.position`,
    [...bind, input.limit, (input.page - 1) * input.limit],
  );
  const products = rows.filter((row): row is ProductReadRow & { total: number } => row.id !== null);
  const page = {
    products: products.map(toProductJson),
    pagination: paginationOf(input, rows[0]?.total ?? 0),
  };
  return options.optionCounts ? { ...page, optionCounts: optionCountsOf(rows[0]?.optionCounts ?? []) } : page;
}

interface FacetRow {
  facet: Facet;
  value: string;
  products: number;
}

/**
 * The listing's total and how many products of its other filters have a
 * variant in stock in each size and colour, in one pass over `listing_counts`
 * (or a price range's products grouped the same way): rows of FacetRow, the
 * total as the facet "total". A size
 * counts the rows that pass every filter but the sizes, a colour every filter
 * but the colours. A subquery of the listing's statement, so the counts agree
 * with the page at one moment.
 */
function countsSql(input: ListingInput, bind: unknown[]): string {
  const conditions = listingConditions(input, bind, ["size", "colour"]);
  // A price range: its products grouped by signature first, so that the sizes and colours are
  // unnested once per signature, as over the summary, instead of once per product.
  const priced = input.minPrice != null || input.maxPrice != null;
  const from = priced
    ? `(SELECT ${SIGNATURE}, count(*)::int AS products FROM products p ${whereOf(conditions)}
         GROUP BY ${SIGNATURE}) p`
    : "listing_counts p";
  const where = priced ? "" : whereOf(conditions);
  const overlaps = (values: string[] | undefined, column: string) => {
    if (!values?.length) return "true";
    bind.push(values);
    return `p.${column} && $${bind.length}::text[]`;
  };
  const sizes = overlaps(input.size, "sizes_in_stock");
  const colours = overlaps(input.colour, "colours_in_stock");
  return `SELECT f.facet, f.value, sum(p.products)::int AS products
            FROM ${from} CROSS JOIN LATERAL (
                   SELECT 'size' AS facet, value FROM unnest(p.sizes_in_stock) AS value WHERE ${colours}
                   UNION ALL
                   SELECT 'colour', value FROM unnest(p.colours_in_stock) AS value WHERE ${sizes}
                   UNION ALL
                   SELECT 'total', '' WHERE ${sizes} AND ${colours}
                 ) f
            ${where}
           GROUP BY f.facet, f.value
          HAVING sum(p.products) > 0`;
}

function optionCountsOf(rows: FacetRow[]): OptionCounts {
  const counts: OptionCounts = { size: [], colour: [] };
  for (const row of rows) counts[row.facet].push({ value: row.value, products: row.products });
  return counts;
}

/** The first products in the default sort, no filters (the home page's "Feature Products"). */
export async function listFeatureProducts(limit: number): Promise<ProductJson[]> {
  const rows = await select<ProductReadRow>(
    `SELECT ${PRODUCT_COLUMNS} FROM products p ORDER BY ${ORDER_BY["price-lowtohigh"]} LIMIT $1`,
    [limit],
  );
  return rows.map(toProductJson);
}

export async function getProduct(id: string): Promise<ProductJson | null> {
  if (!isUuid(id)) return null;
  const rows = await select<ProductReadRow>(`SELECT ${PRODUCT_COLUMNS} FROM products p WHERE p.id = $1`, [
    id,
  ]);
  return rows[0] ? toProductJson(rows[0]) : null;
}

/** A review as the details show it. */
type ReviewSummary = Omit<ReviewJson, "userId" | "productId">;

/** How many reviews the details show; the rest stay in the database (and the average). */
const DETAILS_REVIEW_LIMIT = 50;

export interface ProductDetails extends ProductJson {
  reviewCount: number;
  /** The newest reviews first, at most DETAILS_REVIEW_LIMIT; pages need no user or product ids. */
  reviews: ReviewSummary[];
}

/** A product with its review count and newest reviews, in one statement. */
export async function getProductDetails(id: string): Promise<ProductDetails | null> {
  if (!isUuid(id)) return null;
  const rows = await select<ProductReadRow & { reviewCount: number; reviews: ReviewSummary[] }>(
    `SELECT ${PRODUCT_COLUMNS},
       (SELECT count(*)::int FROM reviews c WHERE c.product_id = p.id) AS "reviewCount",
       COALESCE((
         SELECT json_agg(json_build_object(
                  '_id', r.id, 'userName', r.user_name, 'reviewMessage', r.review_message,
                  'reviewValue', r.review_value, 'createdAt', r.created_at)
                ORDER BY r.created_at DESC, r.id)
           FROM (SELECT * FROM reviews WHERE product_id = p.id
                  ORDER BY created_at DESC, id LIMIT $2) r
       ), '[]'::json) AS reviews
     FROM products p WHERE p.id = $1`,
    [id, DETAILS_REVIEW_LIMIT],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    ...toProductJson(row),
    reviewCount: row.reviewCount,
    reviews: row.reviews.map((review) => ({
      ...review,
      createdAt: new Date(review.createdAt).toISOString(),
    })),
  };
}

/** At most this many banner slides. */
const MAX_BANNER_IMAGES = 10;

/** The home banner's images: the admin's feature images, oldest first. */
export function listFeatureImages(): Promise<FeatureView[]> {
  return listFeatureViews(MAX_BANNER_IMAGES);
}

/** A sitemap file holds at most 50,000 URLs (sitemaps.org). */
const SITEMAP_PRODUCT_LIMIT = 49_000;

export async function listProductsForSitemap(): Promise<{ id: string; updatedAt: Date }[]> {
  return select<{ id: string; updatedAt: Date }>(
    `SELECT id, updated_at AS "updatedAt" FROM products ORDER BY created_at ASC, id ASC LIMIT $1`,
    [SITEMAP_PRODUCT_LIMIT],
  );
}
