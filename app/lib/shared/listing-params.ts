import {
  CATEGORIES,
  BRANDS,
  DEFAULT_SORT,
  SORT_OPTIONS,
  type Brand,
  type Category,
  type SortOption,
} from "./catalog-options";
import { wholeNumberUpTo, type PagingLimits } from "./paging";
import { centsToDecimal, parseCents } from "./money";
import { ALL_SIZES, canonicalColour, canonicalSize, COLOURS } from "./variants";

export { parsePositiveInteger } from "./paging";

/**
 * The listing's state lives in the URL (SPEC §2: name=comma-joined-values):
 * `?category=men,women&brand=nike&sortBy=price-hightolow&page=2`. One parser
 * and one builder, used by the server (loaders, API) and the browser (links,
 * the filter form), so that a pasted URL shows the same products everywhere.
 * Safe to import in the browser.
 */

/** Products per page on the listing and search pages (and the API's default `limit`). */
export const PAGE_SIZE = 24;
/** The largest `limit` the JSON API accepts. */
const MAX_PAGE_SIZE = 100;
/** Pages beyond this are refused: nobody pages that far, and OFFSET gets slower the deeper it goes. */
export const MAX_PAGE = 10_000;
/** The catalogue's paging (the pages fix the page size; the JSON API takes `limit` too). */
export const CATALOG_PAGING: PagingLimits = {
  defaultLimit: PAGE_SIZE,
  maxLimit: MAX_PAGE_SIZE,
  maxPage: MAX_PAGE,
};

export interface ListingFilters {
  category: Category[];
  brand: Brand[];
  /** Sizes and colours of a variant in stock (lib/shared/variants.ts values). */
  size: string[];
  colour: string[];
  /** Only products with something in stock. */
  inStock: boolean;
  /** The price the shopper pays, inclusive, in cents; null when not limited. */
  minPrice: number | null;
  maxPrice: number | null;
}

/** The filters a state has by default (none). */
export const NO_FILTERS: ListingFilters = {
  category: [],
  brand: [],
  size: [],
  colour: [],
  inStock: false,
  minPrice: null,
  maxPrice: null,
};

export interface ListingState extends ListingFilters {
  sortBy: SortOption;
  page: number;
}

export function isSortOption(value: unknown): value is SortOption {
  return typeof value === "string" && SORT_OPTIONS.some((option) => option.id === value);
}

/**
 * Every value of a list parameter, whether comma-joined (`category=men,women`,
 * the canonical form) or repeated (`category=men&category=women`, what a plain
 * GET form with checkboxes sends).
 */
function listParam(params: URLSearchParams, name: string): string[] {
  return params
    .getAll(name)
    .flatMap((value) => value.split(","))
    .map((value) => value.trim().toLowerCase())
    .filter(Boolean);
}

/** Known values in the vocabulary's order, without duplicates; unknown ones are dropped. */
function knownValues<T extends string>(values: string[], vocabulary: readonly T[]): T[] {
  const wanted = new Set(values);
  return vocabulary.filter((value) => wanted.has(value));
}

const SIZE_VALUES = ALL_SIZES.map((size) => size.value);
const COLOUR_VALUES = COLOURS.map((colour) => colour.value);

/** Known sizes in scale order ("m" and "M" alike), without duplicates. */
function knownSizes(values: string[]): string[] {
  return knownValues(
    values.map((value) => canonicalSize(value) ?? ""),
    SIZE_VALUES,
  );
}

function knownColours(values: string[]): string[] {
  return knownValues(
    values.map((value) => canonicalColour(value) ?? ""),
    COLOUR_VALUES,
  );
}

/** The largest price a filter takes, in cents ($1,000,000). */
const MAX_FILTER_PRICE_CENTS = 100_000_000;

/** A price bound ("50", "49.90") in cents; null when absent or not a non-negative amount. */
export function parsePriceBound(value: string | null | undefined): number | null {
  const cents = parseCents(value);
  return cents !== null && cents >= 0 && cents <= MAX_FILTER_PRICE_CENTS ? cents : null;
}

/** A price bound in the URL: "50" for whole amounts, "49.90" otherwise. */
function priceParam(cents: number): string {
  return cents % 100 === 0 ? String(cents / 100) : centsToDecimal(cents);
}

/**
 * The listing state of a URL, forgiving: unknown categories, brands, sizes
 * and colours, an unknown sort, a malformed page or price are ignored (the
 * defaults apply). `size` and `colour` match without regard to case.
 */
export function parseListingState(params: URLSearchParams): ListingState {
  const sortBy = params.get("sortBy");
  return {
    category: knownValues(listParam(params, "category"), CATEGORIES),
    brand: knownValues(listParam(params, "brand"), BRANDS),
    size: knownSizes(listParam(params, "size")),
    colour: knownColours(listParam(params, "colour")),
    inStock: params.get("inStock") === "true",
    minPrice: parsePriceBound(params.get("minPrice")),
    maxPrice: parsePriceBound(params.get("maxPrice")),
    sortBy: isSortOption(sortBy) ? sortBy : DEFAULT_SORT,
    page: wholeNumberUpTo(params.get("page"), MAX_PAGE) ?? 1,
  };
}

/**
 * The canonical query string of a listing state (without "?"): defaults are
 * left out, lists are comma-joined in the vocabulary's order. `extra` adds
 * other parameters (for example `product` for the details dialog).
 */
export function listingQuery(state: Partial<ListingState>, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams();
  const category = knownValues(state.category ?? [], CATEGORIES);
  const brand = knownValues(state.brand ?? [], BRANDS);
  const size = knownSizes(state.size ?? []);
  const colour = knownColours(state.colour ?? []);
  if (category.length) params.set("category", category.join(","));
  if (brand.length) params.set("brand", brand.join(","));
  if (size.length) params.set("size", size.join(","));
  if (colour.length) params.set("colour", colour.join(","));
  if (state.inStock) params.set("inStock", "true");
  if (state.minPrice != null) params.set("minPrice", priceParam(state.minPrice));
  if (state.maxPrice != null) params.set("maxPrice", priceParam(state.maxPrice));
  if (state.sortBy && state.sortBy !== DEFAULT_SORT) params.set("sortBy", state.sortBy);
  if (state.page && state.page > 1) params.set("page", String(state.page));
  for (const [name, value] of Object.entries(extra)) params.set(name, value);
  // URLSearchParams writes "," as "%2C"; the spec's URLs show plain commas.
  return params.toString().replace(/%2C/gi, ",");
}

export function listingHref(state: Partial<ListingState>, extra: Record<string, string> = {}): string {
  const query = listingQuery(state, extra);
  return query ? `/shop/listing?${query}` : "/shop/listing";
}

/** The state with `value` added to or removed from one filter (back to page 1). */
export function toggleFilter(
  state: ListingState,
  name: "category" | "brand" | "size" | "colour",
  value: string,
): Partial<ListingState> {
  const current: string[] = state[name];
  const next = current.includes(value) ? current.filter((item) => item !== value) : [...current, value];
  return { ...state, [name]: next, page: 1 };
}

/** `search` (a location's "?a=b" string) with `name` set, or removed when `value` is null. */
export function withParam(search: string, name: string, value: string | null): string {
  const params = new URLSearchParams(search);
  if (value === null) params.delete(name);
  else params.set(name, value);
  const query = params.toString().replace(/%2C/gi, ",");
  return query ? `?${query}` : "";
}

/** The page numbers to link to: the first, the last and two either side of the current one. */
export function pageWindow(page: number, pages: number): (number | "gap")[] {
  const numbers = new Set<number>([1, pages]);
  for (let n = page - 2; n <= page + 2; n++) if (n >= 1 && n <= pages) numbers.add(n);
  const sorted = [...numbers].filter((n) => n >= 1).sort((a, b) => a - b);
  const result: (number | "gap")[] = [];
  for (const [index, n] of sorted.entries()) {
    const previous = sorted[index - 1];
    if (previous !== undefined && n - previous > 1) result.push("gap");
    result.push(n);
  }
  return result;
}

/** The longest search keyword: the search page's field and the API (a longer one is cut on the page, a 400 there). */
export const MAX_KEYWORD_LENGTH = 100;
