import { CATEGORIES } from "~/lib/shared/catalog-options";
import { getConfig } from "~/lib/server/config.server";
import { SHOP_PAGES } from "~/lib/server/shop-pages.server";
import { listProductsForSitemap } from "~/services/catalog.server";
import { currentStoreSettings } from "~/services/store-settings.server";

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (char) => `&#${char.charCodeAt(0)};`);
}

/**
 * /sitemap.xml: in the open storefront, the pages a visitor without an account gets (every one answers
 * 200): the home page, every category listing, the shop's own pages and every product page (at most
 * SITEMAP_PRODUCT_LIMIT of them: one sitemap file). A members-only shop shows nothing to a crawler, so its
 * sitemap lists nothing.
 */
export async function loader() {
  const { appUrl } = getConfig();
  const open = (await currentStoreSettings()).storefront === "open";
  const products = open ? await listProductsForSitemap() : [];
  const entry = (path: string, lastModified?: Date) =>
    `  <url><loc>${escapeXml(`${appUrl}${path}`)}</loc>${
      lastModified ? `<lastmod>${lastModified.toISOString()}</lastmod>` : ""
    }</url>`;
  const urls = open
    ? [
        entry("/shop/home"),
        entry("/shop/listing"),
        ...CATEGORIES.map((category) => entry(`/shop/listing?category=${category}`)),
        ...SHOP_PAGES.map((page) => entry(`/shop/pages/${page.slug}`)),
        ...products.map((product) => entry(`/shop/product/${product.id}`, new Date(product.updatedAt))),
      ]
    : [];
  const xml = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${urls.join("\n")}
</urlset>
`;
  return new Response(xml, {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
