import { getConfig } from "~/lib/server/config.server";

/** /robots.txt: the storefront may be crawled; the admin panel, sign-in and the API may not. */
export function loader() {
  const { appUrl } = getConfig();
  const body = [
    "User-agent: *",
    "Allow: /shop/",
    "Disallow: /admin",
    "Disallow: /api/",
    "Disallow: /auth/",
    "Disallow: /shop/cart",
    "Disallow: /shop/checkout",
    "Disallow: /shop/account",
    "",
    `Sitemap: ${appUrl}/sitemap.xml`,
    "",
  ].join("\n");
  return new Response(body, {
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
