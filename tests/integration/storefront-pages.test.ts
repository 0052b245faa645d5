import type { LoaderFunctionArgs } from "react-router";
import { NO_FILTERS } from "../../app/lib/shared/listing-params";
import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "../../app/models/db.server";
import { loader as rootLoader } from "../../app/root";
import { loader as robotsLoader } from "../../app/routes/robots[.]txt";
import { loader as homeLoader } from "../../app/routes/shop.home";
import { loader as listingLoader } from "../../app/routes/shop.listing";
import { loader as productLoader } from "../../app/routes/shop.product.$id";
import { loader as searchLoader } from "../../app/routes/shop.search";
import { loader as shopLayoutLoader } from "../../app/routes/shop";
import { loader as sitemapLoader } from "../../app/routes/sitemap[.]xml";
import { addToCart } from "../../app/services/cart-lines.server";
import { addReview } from "../../app/services/reviews.server";
import { updateStoreSettings } from "../../app/services/store-settings.server";
import { createTestUser, resetDatabase } from "../support/database";
import { callRoute, sessionCookieFor } from "../support/requests";
import { createGeneratedProducts, createOrder, createProduct, loadPage } from "../support/storefront";

/**
 * The page loaders: what they give the pages, where they send people, and how
 * many SQL statements a whole page request runs (root + shop layout + page,
 * each loader with its own Request as React Router does). The limits below are each
 * page's budget of statements (docs/decisions/0006, "Fewer statements per
 * page"); they must not grow with the catalogue.
 */
const QUERY_LIMITS = {
  // the shopper with their cart (one statement for the session and the layout) + the page with its count
  listing: 2,
  // + the product with its reviews, in one statement, + the shopper's alerts and heart for it (one statement,
  // read every time: the shopper's own rows, docs/decisions/0042)
  listingWithProduct: 4,
  // the shopper with their cart + feature images + feature products
  home: 3,
  // the shopper with their cart + full-text search
  search: 2,
  // + BEGIN, SET LOCAL, similarity search, COMMIT
  searchTypo: 6,
  // the shopper with their cart + the product with its reviews + the shopper's alerts and heart for it
  product: 3,
};

type AnyLoader = (args: LoaderFunctionArgs) => unknown;
const shopLoaders: AnyLoader[] = [rootLoader, shopLayoutLoader];

async function shopperCookie() {
  const shopper = await createTestUser({ userName: "Pat" });
  return { shopper, cookie: await sessionCookieFor(shopper.id) };
}

/** A product with reviews by `count` buyers, so that the details have something to show. */
async function productWithReviews(count: number) {
  const product = await createProduct({ title: "Reviewed Hoodie", category: "men", brand: "nike" });
  for (let i = 0; i < count; i++) {
    const buyer = await createTestUser({ userName: `Buyer ${i}` });
    await createOrder(buyer.id, [product.id]);
    await addReview(buyer, { productId: product.id, reviewValue: (i % 5) + 1, reviewMessage: `Review ${i}` });
  }
  return product;
}

describe("the listing page loader", () => {
  beforeEach(resetDatabase);

  it("gives the page the state, light product cards, pagination and the open product", async () => {
    const { cookie } = await shopperCookie();
    const product = await productWithReviews(2);
    await createProduct({ category: "women", brand: "zara" });
    const { result } = await loadPage(
      [listingLoader],
      `/shop/listing?category=men,aliens&sortBy=title-atoz&product=${product.id}`,
      cookie,
    );
    expect(result.status).toBe(200);
    const data = await result.json();
    expect(data.state).toEqual({ ...NO_FILTERS, category: ["men"], sortBy: "title-atoz", page: 1 });
    expect(data.pagination).toEqual({ page: 1, limit: 24, total: 1, pages: 1 });
    expect(Object.keys(data.products[0]).sort()).toEqual(
      [
        "_id",
        "brand",
        "category",
        "choice",
        "image",
        "imageWidth",
        "imageHeight",
        "price",
        "salePrice",
        "title",
        "totalStock",
      ].sort(),
    );
    expect(data.details).toMatchObject({ _id: product.id, reviewCount: 2, averageReview: 1.5 });
    expect(data.details.reviews.map((r: { userName: string }) => r.userName)).toEqual(["Buyer 1", "Buyer 0"]);
    // The page shows names, never other shoppers' ids.
    expect(Object.keys(data.details.reviews[0]).sort()).toEqual(
      ["_id", "createdAt", "reviewMessage", "reviewValue", "userName"].sort(),
    );
  });

  it("redirects the repeated names of a plain GET form to the canonical comma-joined URL", async () => {
    const { cookie } = await shopperCookie();
    const response = await callRoute(
      listingLoader,
      "/shop/listing?category=women&category=men&brand=nike&sortBy=price-hightolow",
      { cookie },
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(
      "/shop/listing?category=men,women&brand=nike&sortBy=price-hightolow",
    );
  });

  it("ignores malformed values instead of failing", async () => {
    const { cookie } = await shopperCookie();
    await createProduct();
    for (const query of [
      "page=-4",
      "page=%",
      "sortBy=%27",
      "category=%00",
      "brand=",
      "product=nope",
      "page=1e9",
    ]) {
      const response = await callRoute(listingLoader, `/shop/listing?${query}`, { cookie });
      expect(response.status, query).toBe(200);
      const data = await response.json();
      expect(data.pagination.total, query).toBe(1);
      expect(data.details, query).toBeNull();
    }
  });

  it("keeps the shop for signed-in shoppers: anonymous visitors sign in first, admins go to their dashboard", async () => {
    const anonymous = await callRoute(listingLoader, "/shop/listing?category=men");
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("Location")).toBe(
      "/auth/login?redirectTo=%2Fshop%2Flisting%3Fcategory%3Dmen",
    );
    const admin = await createTestUser({ role: "admin" });
    const asAdmin = await callRoute(listingLoader, "/shop/listing", {
      cookie: await sessionCookieFor(admin.id),
    });
    expect(asAdmin.headers.get("Location")).toBe("/admin/dashboard");
  });
});

describe("the other page loaders", () => {
  beforeEach(resetDatabase);

  it("home: the banner images and the first products in the default sort", async () => {
    const { cookie } = await shopperCookie();
    // Added one after the other: the banner shows them in the order the admin added them.
    const addedAt = Date.now();
    await getDb().models.FeatureImage.bulkCreate([
      { image: "/b.svg", createdAt: new Date(addedAt + 1000) },
      { image: "/a.svg", createdAt: new Date(addedAt) },
    ]);
    for (let i = 0; i < 14; i++) await createProduct({ price: `${40 - i}.00` });
    const data = await (await callRoute(homeLoader, "/shop/home", { cookie })).json();
    expect(data.featureImages.map((f: { image: string }) => f.image)).toEqual(["/a.svg", "/b.svg"]);
    expect(data.products).toHaveLength(12);
    expect(data.products[0].price).toBe(27);
    expect(data.details).toBeNull();
  });

  it("search: no keyword, no results; a keyword searches, trimmed", async () => {
    const { cookie } = await shopperCookie();
    await createProduct({ title: "Canvas Tote Bag", category: "accessories" });
    const none = await (await callRoute(searchLoader, "/shop/search", { cookie })).json();
    expect(none).toMatchObject({ keyword: "", products: [], pagination: { total: 0 } });
    const found = await (
      await callRoute(searchLoader, "/shop/search?keyword=%20%20bag%20", { cookie })
    ).json();
    expect(found.keyword).toBe("bag");
    expect(found.products.map((p: { title: string }) => p.title)).toEqual(["Canvas Tote Bag"]);
  });

  it("product page: the details, schema.org JSON-LD with price and rating, 404 for unknown ids", async () => {
    const { cookie } = await shopperCookie();
    const product = await productWithReviews(2);
    await getDb().models.Product.update({ salePrice: "9.50" }, { where: { id: product.id } });
    const response = await callRoute(productLoader, `/shop/product/${product.id}`, {
      cookie,
      params: { id: product.id },
    });
    const data = await response.json();
    expect(data.product).toMatchObject({ _id: product.id, title: "Reviewed Hoodie", reviewCount: 2 });
    expect(data.canonicalUrl).toMatch(new RegExp(`/shop/product/${product.id}$`));
    expect(data.jsonLd).toMatchObject({
      "@type": "Product",
      name: "Reviewed Hoodie",
      offers: {
        "@type": "Offer",
        price: "9.50",
        priceCurrency: "USD",
        availability: "https://schema.org/InStock",
      },
      aggregateRating: { "@type": "AggregateRating", ratingValue: "1.50", reviewCount: 2 },
    });
    for (const id of ["00000000-0000-4000-8000-000000000000", "nope"]) {
      const missing = await callRoute(productLoader, `/shop/product/${id}`, { cookie, params: { id } });
      expect(missing.status).toBe(404);
    }
  });

  it("sitemap.xml lists, in the open storefront, the shop's pages and every product; robots.txt points to it", async () => {
    const product = await createProduct();
    await updateStoreSettings({ storefront: "open" });
    const sitemap = await callRoute(sitemapLoader, "/sitemap.xml");
    expect(sitemap.headers.get("Content-Type")).toMatch(/application\/xml/);
    const xml = await sitemap.text();
    expect(xml).toContain("<urlset");
    expect(xml).toContain("/shop/home</loc>");
    expect(xml).toContain("/shop/listing?category=men</loc>");
    expect(xml).toContain("/shop/pages/shipping-returns</loc>");
    expect(xml).toContain(`/shop/product/${product.id}</loc>`);
    const robots = await (await callRoute(robotsLoader, "/robots.txt")).text();
    expect(robots).toMatch(/^Allow: \/shop\/$/m);
    expect(robots).toMatch(/^Disallow: \/api\/$/m);
    expect(robots).toMatch(/^Sitemap: http.*\/sitemap\.xml$/m);
  });

  it("a members-only shop's sitemap lists nothing and its robots.txt asks for nothing to be crawled", async () => {
    await createProduct();
    const xml = await (await callRoute(sitemapLoader, "/sitemap.xml")).text();
    expect(xml).toContain("<urlset");
    expect(xml).not.toContain("<url>");
    const robots = await (await callRoute(robotsLoader, "/robots.txt")).text();
    expect(robots).toMatch(/^Disallow: \/$/m);
    expect(robots).not.toMatch(/^Allow:/m);
  });
});

describe("SQL statements per page request", () => {
  beforeEach(resetDatabase);

  async function measure(catalogueSize: number) {
    await resetDatabase();
    const { shopper, cookie } = await shopperCookie();
    await createGeneratedProducts(catalogueSize);
    await getDb().models.FeatureImage.bulkCreate([
      { image: "/a.svg" },
      { image: "/b.svg" },
      { image: "/c.svg" },
    ]);
    const reviewed = await productWithReviews(catalogueSize > 100 ? 12 : 1);
    // The product page shows another product: each is the shopper's first look at it (nothing kept yet).
    const viewed = await productWithReviews(catalogueSize > 100 ? 12 : 1);
    await addToCart(shopper.id, reviewed.id, 1);
    const count = async (loader: AnyLoader, path: string, params = {}) =>
      (await loadPage([...shopLoaders, loader], path, cookie, params)).queries.length;
    return {
      listing: await count(
        listingLoader,
        "/shop/listing?category=men,women&brand=nike,zara&sortBy=price-hightolow&page=2",
      ),
      listingWithProduct: await count(listingLoader, `/shop/listing?page=3&product=${reviewed.id}`),
      home: await count(homeLoader, "/shop/home"),
      search: await count(searchLoader, "/shop/search?keyword=hoodie"),
      searchTypo: await count(searchLoader, "/shop/search?keyword=hoodei"),
      product: await count(productLoader, `/shop/product/${viewed.id}`, { id: viewed.id }),
    };
  }

  it("stays at the stated numbers whatever the catalogue size", async () => {
    const small = await measure(30);
    const large = await measure(600);
    expect(small).toEqual(QUERY_LIMITS);
    expect(large).toEqual(QUERY_LIMITS);
  });
});
