import { DEFAULT_SORT, SORT_OPTIONS } from "~/lib/shared/catalog-options";
import { badRequest, type FieldErrors } from "~/lib/server/errors.server";
import {
  isSortOption,
  MAX_PAGE,
  MAX_PAGE_SIZE,
  PAGE_SIZE,
  parseListingState,
  type ListingState,
} from "~/lib/shared/listing-params";
import { pagingQuerySchema, queryValues } from "~/lib/server/paging-schema.server";
import { fieldErrorsOf } from "~/lib/shared/schemas";

/**
 * Query parameters of the catalogue's JSON API (API.md "Products and
 * search"). Unknown categories and brands are ignored, as API.md says; a
 * malformed page, limit or sortBy is an error (400) rather than a silent
 * default, so that a client never mistakes one listing for another.
 *
 * `page` starts at 1; `limit` defaults to PAGE_SIZE (24) and may be at most
 * MAX_PAGE_SIZE (100).
 */
export const apiPagingSchema = pagingQuerySchema({
  defaultLimit: PAGE_SIZE,
  maxLimit: MAX_PAGE_SIZE,
  maxPage: MAX_PAGE,
});

export function parseApiPaging(params: URLSearchParams, errors: FieldErrors = {}) {
  const parsed = apiPagingSchema.safeParse(queryValues(apiPagingSchema, params));
  if (!parsed.success) Object.assign(errors, fieldErrorsOf(parsed.error));
  throwIfAny(errors);
  return parsed.data ?? { page: 1, limit: PAGE_SIZE };
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

function throwIfAny(errors: FieldErrors) {
  const messages = Object.values(errors).flat();
  if (messages.length) throw badRequest(messages[0]!, errors);
}
