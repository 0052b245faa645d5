import { DEFAULT_SORT, SORT_OPTIONS } from "~/lib/shared/catalog-options";
import type { FieldErrors } from "~/lib/server/errors.server";
import {
  CATALOG_PAGING,
  isSortOption,
  parseListingState,
  type ListingState,
} from "~/lib/shared/listing-params";
import { parsePaging, pagingQuerySchema } from "~/lib/server/paging.server";

/**
 * Query parameters of the catalogue's JSON API (API.md "Products and
 * search"). Unknown categories and brands are ignored, as API.md says; a
 * malformed page, limit or sortBy is an error (400) rather than a silent
 * default, so that a client never mistakes one listing for another.
 *
 * `page` starts at 1; `limit` defaults to PAGE_SIZE (24) and may be at most
 * MAX_PAGE_SIZE (100).
 */
export const apiPagingSchema = pagingQuerySchema(CATALOG_PAGING);

export function parseApiPaging(params: URLSearchParams, errors: FieldErrors = {}) {
  return parsePaging(params, CATALOG_PAGING, { errors });
}

export function parseApiListingQuery(params: URLSearchParams): ListingState & { limit: number } {
  const errors: FieldErrors = {};
  const sortBy = params.get("sortBy");
  if (sortBy !== null && sortBy !== "" && !isSortOption(sortBy)) {
    errors.sortBy = [`sortBy must be one of ${SORT_OPTIONS.map((option) => option.id).join(", ")}`];
  }
  const paging = parseApiPaging(params, errors);
  const state = parseListingState(params);
  return { ...state, sortBy: isSortOption(sortBy) ? sortBy : DEFAULT_SORT, ...paging };
}
