import { getConfig } from "~/lib/server/config.server";
import { currentStoreSettings } from "~/services/store-settings.server";

/**
 * /robots.txt: in the open storefront, the shop may be crawled and the admin panel, sign-in, the API and
 * the shopper's own pages may not; a members-only shop shows a crawler nothing but the sign-in form, so
 * it asks for nothing to be crawled.
 */
export async function loader() {
  const { appUrl } = getConfig();
  const open = (await currentStoreSettings()).storefront === "open";
  const rules = open
    ? [
        "Allow: /shop/",
        "Disallow: /admin",
        "Disallow: /api/",
        "Disallow: /auth/",
        "Disallow: /shop/cart",
        "Disallow: /shop/checkout",
        "Disallow: /shop/account",
        "Disallow: /shop/addresses",
      ]
    : ["Disallow: /"];
  const body = ["User-agent: *", ...rules, "", `Sitemap: ${appUrl}/sitemap.xml`, ""].join("\n");
  return new Response(body, {
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
