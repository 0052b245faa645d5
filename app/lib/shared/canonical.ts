/**
 * Search engines' names for the storefront's pages: the canonical URL (absolute, from APP_URL) that a page
 * declares in its `<link rel="canonical">`, so that a listing reached with other parameters or a product opened
 * in a dialog counts as the one page it is.
 */

/** The path of a product's own page. */
export function productPagePath(id: string): string {
  return `/shop/product/${id}`;
}

/** The meta descriptor of the page's canonical link. */
export function canonicalLink(href: string) {
  return { tagName: "link", rel: "canonical", href } as const;
}
