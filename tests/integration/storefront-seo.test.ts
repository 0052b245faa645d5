import { beforeEach, describe, expect, it } from "vitest";
import type { MetaDescriptor } from "react-router";
import { getConfig } from "../../app/lib/server/config.server";
import { loader as homeLoader, meta as homeMeta } from "../../app/routes/shop.home";
import { loader as listingLoader, meta as listingMeta } from "../../app/routes/shop.listing";
import { loader as productLoader, meta as productMeta } from "../../app/routes/shop.product.$id";
import { updateStoreSettings } from "../../app/services/store-settings.server";
import { resetDatabase } from "../support/database";
import { callRoute } from "../support/requests";
import { createProduct, createProductWithVariants } from "../support/storefront";

/**
 * Search engines in the open storefront: every product page names its canonical URL (absolute, on APP_URL) and
 * carries schema.org Product data with an offer per size and colour; the listing and home name theirs.
 */

beforeEach(async () => {
  await resetDatabase();
  await updateStoreSettings({ storefront: "open" });
});

const origin = () => getConfig().appUrl;

type Meta = (args: { data: unknown }) => MetaDescriptor[] | undefined;

/** The canonical link a route's meta gives for the data its loader answered. */
async function canonicalOf(meta: unknown, response: Response): Promise<string | undefined> {
  const descriptors = (meta as Meta)({ data: await response.json() }) ?? [];
  const links = descriptors.filter(
    (descriptor) =>
      "tagName" in descriptor && descriptor.tagName === "link" && descriptor.rel === "canonical",
  );
  expect(links.length).toBeLessThanOrEqual(1);
  return (links[0] as { href?: string } | undefined)?.href;
}

describe("structured data of a product page", () => {
  it("offers each size and colour with its own SKU, price and availability, with absolute pictures and the brand", async () => {
    const { product } = await createProductWithVariants(
      { title: "Trail Jacket", brand: "puma", price: "80.00" },
      [
        { size: "S", colour: "red", totalStock: 0, sku: "TJ-S-RED" },
        { size: "M", colour: "red", totalStock: 4, price: "85.00", salePrice: "70.00", sku: "TJ-M-RED" },
      ],
    );
    const response = await callRoute(productLoader, `/shop/product/${product.id}`, {
      params: { id: product.id },
    });
    const { jsonLd, canonicalUrl } = await response.json();
    expect(canonicalUrl).toBe(`${origin()}/shop/product/${product.id}`);
    expect(jsonLd).toMatchObject({
      "@type": "Product",
      "@id": canonicalUrl,
      name: "Trail Jacket",
      image: [`${origin()}/images/products/test.svg`],
      brand: { "@type": "Brand", name: "Puma" },
      offers: { "@type": "Offer", priceCurrency: "USD", availability: "https://schema.org/InStock" },
      hasVariant: [
        {
          "@type": "Product",
          sku: "TJ-S-RED",
          size: "S",
          color: "red",
          image: `${origin()}/images/products/test.svg`,
          brand: { name: "Puma" },
          offers: {
            "@type": "Offer",
            price: "80.00",
            priceCurrency: "USD",
            availability: "https://schema.org/OutOfStock",
            url: canonicalUrl,
          },
        },
        {
          sku: "TJ-M-RED",
          size: "M",
          offers: { price: "70.00", availability: "https://schema.org/InStock" },
        },
      ],
    });
  });

  it("has no variants list for a product without sizes or colours, and names its canonical link", async () => {
    const product = await createProduct({ title: "Plain Cap" });
    const response = await callRoute(productLoader, `/shop/product/${product.id}`, {
      params: { id: product.id },
    });
    const { jsonLd } = await response.clone().json();
    expect(jsonLd.hasVariant).toBeUndefined();
    expect(await canonicalOf(productMeta, response)).toBe(`${origin()}/shop/product/${product.id}`);
  });
});

describe("canonical links of the listing and home", () => {
  it("the listing's is its filters, sort and page on APP_URL; with a product opened over it, the product's page", async () => {
    const product = await createProduct();
    const listing = await callRoute(listingLoader, "/shop/listing?brand=nike&category=men&page=1");
    expect(await canonicalOf(listingMeta, listing)).toBe(`${origin()}/shop/listing?category=men&brand=nike`);
    const dialog = await callRoute(listingLoader, `/shop/listing?category=men&product=${product.id}`);
    expect(await canonicalOf(listingMeta, dialog)).toBe(`${origin()}/shop/product/${product.id}`);
  });

  it("home's is /shop/home on APP_URL, whatever its parameters", async () => {
    const home = await callRoute(homeLoader, "/shop/home?utm_source=mail");
    expect(await canonicalOf(homeMeta, home)).toBe(`${origin()}/shop/home`);
  });
});
