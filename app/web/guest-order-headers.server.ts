/**
 * The headers of everything behind a guest order's token (its page, its API answers, "Find my order"): no
 * cache may keep it (the token is the only key) and no other site learns the URL from a Referer.
 * `same-origin`, not `no-referrer`: under `no-referrer` a browser sends `Origin: null` with the page's own
 * forms (the return, "Find my order"), which the shop refuses as a cross-site write when JavaScript is off.
 */
export const GUEST_ORDER_HEADERS: Readonly<Record<string, string>> = {
  "Cache-Control": "private, no-store",
  "Referrer-Policy": "same-origin",
};
