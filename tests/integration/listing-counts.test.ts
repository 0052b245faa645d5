import { beforeEach, describe, expect, it } from "vitest";
import { QueryTypes } from "sequelize";
import { getDb } from "../../app/models/db.server";
import { setPaymentGateway } from "../../app/payments/index.server";
import { addToCart } from "../../app/services/cart-lines.server";
import { listProducts, type ListingInput } from "../../app/services/catalog.server";
import { captureOrderPayment, createOrderFromCart } from "../../app/services/checkout.server";
import { createProduct, deleteProduct, updateProduct } from "../../app/services/product-writer.server";
import { listingCountsDown, listingCountsUp } from "../../db/migrations/0027-listing-counts";
import { resetDatabase } from "../support/database";
import { createGeneratedProducts } from "../support/storefront";
import { createShopper, payerAnswers, saveAddress } from "./checkout-support";

/**
 * The listing's totals and size and colour counts come from `listing_counts`,
 * which triggers keep (db/migrations/0027-listing-counts.ts): after any change
 * through the real services, by many writers at once, it must say what
 * counting the products from scratch says, and so must the listing.
 */

type Signature = {
  category: string;
  brand: string;
  in_stock: boolean;
  sizes_in_stock: string[];
  colours_in_stock: string[];
  products: number;
};

const ORDER = "ORDER BY category, brand, in_stock, sizes_in_stock, colours_in_stock";

async function kept(): Promise<Signature[]> {
  return getDb().sequelize.query<Signature>(
    `SELECT category, brand, in_stock, sizes_in_stock, colours_in_stock, products
       FROM listing_counts WHERE products <> 0 ${ORDER}`,
    { type: QueryTypes.SELECT },
  );
}

async function counted(): Promise<Signature[]> {
  return getDb().sequelize.query<Signature>(
    `SELECT category, brand, total_stock > 0 AS in_stock, sizes_in_stock, colours_in_stock, count(*)::int AS products
       FROM products GROUP BY 1, 2, 3, 4, 5 ${ORDER}`,
    { type: QueryTypes.SELECT },
  );
}

/** Categories sized S, M, L (kids are sized by age). */
const CATEGORIES = ["men", "women"] as const;
const BRANDS = ["nike", "zara", "puma"] as const;
const pick = <T>(values: readonly T[], index: number) => values[index % values.length]!;

/** A product in S, M and L, black in S and M, blue in L, with the given stock of each. */
function teeInput(index: number, stock: [number, number, number]) {
  return {
    title: `Counted Tee ${index}`,
    description: "A tee whose stock many writers change at once.",
    category: pick(CATEGORIES, index),
    brand: pick(BRANDS, index * 2),
    material: "Cotton",
    image: "/images/products/classic-tee.svg",
    price: 20 + (index % 7),
    salePrice: 0,
    variants: [
      { size: "S", colour: "black", sku: `CT-${index}-S`, totalStock: stock[0] },
      { size: "M", colour: "black", sku: `CT-${index}-M`, totalStock: stock[1] },
      { size: "L", colour: "blue", sku: `CT-${index}-L`, totalStock: stock[2] },
    ],
  };
}

/** A shopper buys `quantity` of the variant: the cart, the order and the payment's capture. */
async function buy(productId: string, variantId: string, quantity: number, name: string) {
  const shopper = await createShopper(name);
  await addToCart(shopper.id, productId, quantity, variantId);
  const address = await saveAddress(shopper.id);
  const created = await createOrderFromCart(shopper, { addressId: address._id });
  const answer = await payerAnswers(created.order.paymentId!, "approve");
  await captureOrderPayment(shopper, { paymentId: answer.token });
}

const listing = (filters: Partial<ListingInput> = {}): ListingInput => ({
  category: [],
  brand: [],
  sortBy: "price-lowtohigh",
  page: 1,
  limit: 24,
  ...filters,
});

describe("the listing counts behind the listing's totals and filters", () => {
  beforeEach(async () => {
    await resetDatabase();
    setPaymentGateway(undefined);
  });

  it("stay exact while many writers create, edit, sell, restock and delete products at once", async () => {
    const first = await Promise.all(
      Array.from({ length: 16 }, (_, index) => createProduct(teeInput(index, [1, 1, 2]))),
    );
    await createGeneratedProducts(60);
    expect(await kept()).toEqual(await counted());

    const variantOf = (product: (typeof first)[number], size: string) =>
      product.variants.find((variant) => variant.size === size)!;
    const { ProductVariant } = getDb().models;
    await Promise.all([
      // Admin adds.
      ...Array.from({ length: 12 }, (_, index) =>
        createProduct(teeInput(100 + index, [index % 2, index % 3, 1])),
      ),
      // Admin edits: another category, brand and stock of each size.
      ...first.slice(0, 4).map((product, index) =>
        updateProduct(product._id, {
          category: pick(CATEGORIES, index + 1),
          brand: pick(BRANDS, index + 1),
          variants: product.variants.map((variant, at) => ({
            _id: variant._id,
            sku: variant.sku,
            size: variant.size,
            colour: variant.colour,
            totalStock: (index + at) % 2,
          })),
        }),
      ),
      // Shoppers buy the last S of four tees (that size leaves the listing's filters).
      ...first
        .slice(4, 8)
        .map((product, index) => buy(product._id, variantOf(product, "S")._id, 1, `Buyer ${index}`)),
      // Restocks and sell-outs as the reconciler, returns and cancellations write them.
      ...first
        .slice(8, 12)
        .map((product, index) =>
          ProductVariant.update(
            { totalStock: index % 2 ? 0 : 9 },
            { where: { id: variantOf(product, index % 2 ? "L" : "S")._id } },
          ),
        ),
      // Admin deletes.
      ...first.slice(12).map((product) => deleteProduct(product._id)),
    ]);

    expect(await kept()).toEqual(await counted());
    const [all] = await counted().then((rows) => [rows.reduce((sum, row) => sum + row.products, 0)]);
    expect(all).toBe(16 + 60 + 12 - 4);
  });

  it("give the listing the totals and size and colour counts a count of the products gives", async () => {
    await Promise.all(
      Array.from({ length: 9 }, (_, index) => createProduct(teeInput(index, [index % 2, 1, index % 3]))),
    );
    await createGeneratedProducts(120);
    const filters: Partial<ListingInput>[] = [
      {},
      { category: ["men"] },
      { size: ["M"] },
      { category: ["women", "kids"], size: ["S", "L"] },
      { colour: ["black"] },
      { colour: ["black"], size: ["L"], brand: ["nike", "zara"] },
      { inStock: true },
      { inStock: true, category: ["men"], minPrice: 1000, maxPrice: 4000 },
    ];
    for (const filter of filters) {
      const input = listing(filter);
      const { pagination, optionCounts } = await listProducts(input, { optionCounts: true });
      const [row] = await getDb().sequelize.query<{ total: number }>(
        `SELECT count(*)::int AS total FROM products
          WHERE (cardinality($1::text[]) = 0 OR category = ANY($1))
            AND (cardinality($2::text[]) = 0 OR brand = ANY($2))
            AND (cardinality($3::text[]) = 0 OR sizes_in_stock && $3)
            AND (cardinality($4::text[]) = 0 OR colours_in_stock && $4)
            AND (NOT $5 OR total_stock > 0)
            AND effective_price BETWEEN $6 AND $7`,
        {
          bind: [
            input.category,
            input.brand,
            input.size ?? [],
            input.colour ?? [],
            Boolean(input.inStock),
            (input.minPrice ?? 0) / 100,
            (input.maxPrice ?? 100_000_00) / 100,
          ],
          type: QueryTypes.SELECT,
        },
      );
      expect(pagination.total, JSON.stringify(filter)).toBe(row?.total);
      const sizes = await getDb().sequelize.query<{ value: string; products: number }>(
        `SELECT value, count(*)::int AS products FROM products CROSS JOIN unnest(sizes_in_stock) value
          WHERE (cardinality($1::text[]) = 0 OR category = ANY($1))
            AND (cardinality($2::text[]) = 0 OR brand = ANY($2))
            AND (cardinality($3::text[]) = 0 OR colours_in_stock && $3)
            AND (NOT $4 OR total_stock > 0)
            AND effective_price BETWEEN $5 AND $6
          GROUP BY value`,
        {
          bind: [
            input.category,
            input.brand,
            input.colour ?? [],
            Boolean(input.inStock),
            (input.minPrice ?? 0) / 100,
            (input.maxPrice ?? 100_000_00) / 100,
          ],
          type: QueryTypes.SELECT,
        },
      );
      const byValue = (rows: { value: string; products: number }[]) =>
        Object.fromEntries(rows.map((entry) => [entry.value, entry.products]));
      expect(byValue(optionCounts.size), JSON.stringify(filter)).toEqual(byValue(sizes));
    }
  });

  it("are filled from the catalogue there is when the migration runs", async () => {
    await createGeneratedProducts(200);
    const context = getDb().sequelize.getQueryInterface();
    await listingCountsDown({ context, name: "0027-listing-counts" } as never);
    await listingCountsUp({ context, name: "0027-listing-counts" } as never);
    expect(await kept()).toEqual(await counted());
  });
});
