/**
 * The headers of everything behind a guest order's token (its page, its API answers, "Find my order"): no
 * cache may keep it (the token is the only key) and no other site learns the URL from a Referer.
 */
export const GUEST_ORDER_HEADERS: Readonly<Record<string, string>> = {
  "Cache-Control": "private, no-store",
  "Referrer-Policy": "no-referrer",
};
