import { CATEGORIES } from "~/lib/shared/catalog-options";
import { getConfig } from "~/lib/server/config.server";
import { listProductsForSitemap } from "~/services/catalog.server";

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (char) => `&#${char.charCodeAt(0)};`);
}

/**
 * /sitemap.xml: the storefront's pages, every category listing and every
 * product page (at most SITEMAP_PRODUCT_LIMIT of them: one sitemap file).
 */
export async function loader() {
  const { appUrl } = getConfig();
  const products = await listProductsForSitemap();
  const entry = (path: string, lastModified?: Date) =>
    `  <url><loc>${escapeXml(`${appUrl}${path}`)}</loc>${
      lastModified ? `<lastmod>${lastModified.toISOString()}</lastmod>` : ""
    }</url>`;
  const urls = [
    entry("/shop/home"),
    entry("/shop/listing"),
    ...CATEGORIES.map((category) => entry(`/shop/listing?category=${category}`)),
    entry("/shop/search"),
    ...products.map((product) => entry(`/shop/product/${product.id}`, new Date(product.updatedAt))),
  ];
  const xml = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${urls.join("\n")}
</urlset>
`;
  return new Response(xml, {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
