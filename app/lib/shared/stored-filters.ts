/**
 * Mirrors the filters into session storage (SPEC §9 key `filters`); the URL
 * stays the truth. Its own module: the header on every page calls it, and
 * should not bring the listing's controls along (the JavaScript budget,
 * docs/decisions/0008).
 */
export function storeFilters(filters: { category?: string[]; brand?: string[] } | null) {
  try {
    if (filters === null) window.sessionStorage.removeItem("filters");
    else window.sessionStorage.setItem("filters", JSON.stringify(filters));
  } catch {
    // Storage may be disabled (private mode): the URL carries the state anyway.
  }
}
