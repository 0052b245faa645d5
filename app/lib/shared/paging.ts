/**
 * Paging, in one place for every paged list: the catalogue (listing, search,
 * reviews), the admin's products and orders, their pages and the JSON API.
 * Safe to import in the browser (no zod): the strict parser that answers the
 * API's 400s is app/lib/server/paging.server.ts, built on the same rules.
 *
 * A list answers `{ page, limit, total, pages }` (API.md), built by
 * `paginationOf`. `pages` is the number of pages the list fills,
 * ceil(total / limit): an empty list has 0 pages. API.md does not say what an
 * empty result's `pages` is; 0 is what the public catalogue answered, keeps
 * `pages × limit ≥ total` and `page ≤ pages` for every page that has items,
 * and the OpenAPI document allows it. The pages' paging links show nothing
 * below 2 pages, so "page 1 of 0" is never shown. A page past the end keeps
 * its number and has no items (docs/decisions/0010-one-paging-module.md).
 */

export interface Paging {
  page: number;
  limit: number;
}

export interface Pagination extends Paging {
  total: number;
  pages: number;
}

/** A list's paging rules: its page size and the largest page size and page number it accepts. */
export interface PagingLimits {
  defaultLimit: number;
  maxLimit: number;
  maxPage: number;
}

/** A positive whole number written plainly ("2", not "2.0", "+2" or "2e0"), or null. */
export function parsePositiveInteger(value: string | null | undefined): number | null {
  if (value === null || value === undefined || !/^\d{1,9}$/.test(value.trim())) return null;
  const number = Number(value.trim());
  return number >= 1 ? number : null;
}

/** A query value as a whole number from 1 to `max`, or null (missing, empty, malformed or out of range). */
export function wholeNumberUpTo(value: string | null | undefined, max: number): number | null {
  const number = parsePositiveInteger(value);
  return number !== null && number <= max ? number : null;
}

/**
 * `page` and `limit` of a page's URL, forgiving: a value that is missing or
 * not a whole number from 1 to its maximum falls back to the default (page 1,
 * `defaultLimit`), so that a hand-edited URL still shows a list. The API
 * accepts exactly the same values and answers 400 for the rest.
 */
export function parsePagingLeniently(params: URLSearchParams, limits: PagingLimits): Paging {
  return {
    page: wholeNumberUpTo(params.get("page"), limits.maxPage) ?? 1,
    limit: wholeNumberUpTo(params.get("limit"), limits.maxLimit) ?? limits.defaultLimit,
  };
}

/** The `{ page, limit, total, pages }` of one page of a list of `total` items. */
export function paginationOf(paging: Paging, total: number): Pagination {
  return { page: paging.page, limit: paging.limit, total, pages: Math.ceil(total / paging.limit) };
}
