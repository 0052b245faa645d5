import { beforeEach, describe, expect, it } from "vitest";
import { QueryTypes } from "sequelize";
import { getDb } from "../../app/models/db.server";
import { listProducts, type ListingInput } from "../../app/services/catalog.server";
import { productCountsDown, productCountsUp } from "../../db/migrations/0009-product-counts";
import { CATEGORIES, BRANDS } from "../../app/lib/shared/catalog-options";
import { resetDatabase } from "../support/database";
import { createGeneratedProducts, createProduct } from "../support/storefront";

/**
 * The listing's totals come from `product_counts`, which triggers keep
 * (db/migrations/0009-product-counts.ts): after any change of the catalogue,
 * by one writer or many at once, it must say what counting the products says.
 */

type Pair = { category: string; brand: string; products: number };

async function kept(): Promise<Pair[]> {
  return getDb().sequelize.query<Pair>(
    `SELECT category, brand, products FROM product_counts WHERE products > 0 ORDER BY category, brand`,
    { type: QueryTypes.SELECT },
  );
}

async function counted(): Promise<Pair[]> {
  return getDb().sequelize.query<Pair>(
    `SELECT category, brand, count(*)::int AS products FROM products GROUP BY category, brand ORDER BY category, brand`,
    { type: QueryTypes.SELECT },
  );
}

const pick = <T>(values: readonly T[], index: number) => values[index % values.length]!;

describe("the product counts behind the listing's totals", () => {
  beforeEach(resetDatabase);

  it("follow adds, a bulk add, moves to another category or brand, deletes and an emptied catalogue", async () => {
    await createGeneratedProducts(500);
    const scarf = await createProduct({ category: "accessories", brand: "zara" });
    const boots = await createProduct({ category: "footwear", brand: "puma" });
    expect(await kept()).toEqual(await counted());

    const { Product } = getDb().models;
    await Product.update({ category: "women", brand: "h&m" }, { where: { id: scarf.id } });
    await Product.destroy({ where: { id: boots.id } });
    await Product.destroy({ where: { category: "kids" } });
    expect(await kept()).toEqual(await counted());

    await getDb().sequelize.query("TRUNCATE products CASCADE");
    expect(await kept()).toEqual([]);
  });

  it("are not written by a stock or price change", async () => {
    const product = await createProduct({ category: "men", brand: "nike" });
    const version = async () =>
      (
        await getDb().sequelize.query<{ xmin: string }>(
          `SELECT xmin::text FROM product_counts WHERE category = 'men' AND brand = 'nike'`,
          { type: QueryTypes.SELECT },
        )
      )[0]!.xmin;
    const before = await version();
    await getDb().models.Product.update(
      { totalStock: 3, price: "9.99", category: "men", brand: "nike" },
      { where: { id: product.id } },
    );
    expect(await version()).toBe(before);
  });

  it("stay exact when many writers add, move and delete products at once", async () => {
    const { Product } = getDb().models;
    const products = await Promise.all(
      Array.from({ length: 40 }, (_, index) =>
        createProduct({ category: pick(CATEGORIES, index), brand: pick(BRANDS, index * 7) }),
      ),
    );
    // 120 writes on the pool's connections together: adds, moves both ways and deletes of shared pairs.
    await Promise.all([
      ...Array.from({ length: 40 }, (_, index) =>
        createProduct({ category: pick(CATEGORIES, index * 3), brand: pick(BRANDS, index) }),
      ),
      ...products
        .slice(0, 20)
        .map((product, index) =>
          Product.update(
            { category: pick(CATEGORIES, index + 1), brand: pick(BRANDS, index + 2) },
            { where: { id: product.id } },
          ),
        ),
      ...products.slice(20).map((product) => Product.destroy({ where: { id: product.id } })),
      ...Array.from({ length: 4 }, (_, index) => createGeneratedProducts(10, index + 1)),
      ...Array.from({ length: 16 }, (_, index) =>
        getDb().sequelize.transaction(async (transaction) => {
          const moved = await Product.create(
            {
              title: `Moved ${index}`,
              description: "Added, then moved in the same transaction.",
              category: pick(CATEGORIES, index),
              brand: pick(BRANDS, index),
              price: "10.00",
              totalStock: 1,
              image: "/images/products/test.svg",
            },
            { transaction },
          );
          await moved.update({ category: pick(CATEGORIES, index + 2) }, { transaction });
        }),
      ),
    ]);
    expect(await kept()).toEqual(await counted());
    expect((await kept()).reduce((sum, pair) => sum + pair.products, 0)).toBe(40 + 40 - 20 + 40 + 16);
  });

  it("give the listing the totals a count of the products gives, filtered or not", async () => {
    await createGeneratedProducts(300);
    const filters: Pick<ListingInput, "category" | "brand">[] = [
      { category: [], brand: [] },
      { category: ["men"], brand: [] },
      { category: [], brand: ["nike", "zara"] },
      { category: ["women", "kids"], brand: ["h&m", "levi", "puma"] },
    ];
    for (const filter of filters) {
      const page = await listProducts({ ...filter, sortBy: "price-lowtohigh", page: 1, limit: 12 });
      const [row] = await getDb().sequelize.query<{ total: number }>(
        `SELECT count(*)::int AS total FROM products
          WHERE (cardinality($1::text[]) = 0 OR category = ANY($1)) AND (cardinality($2::text[]) = 0 OR brand = ANY($2))`,
        { bind: [filter.category, filter.brand], type: QueryTypes.SELECT },
      );
      expect(page.pagination.total).toBe(row?.total);
    }
  });

  it("are filled from the catalogue there is when the migration runs", async () => {
    await createGeneratedProducts(200);
    const context = getDb().sequelize.getQueryInterface();
    await productCountsDown({ context, name: "0009-product-counts" } as never);
    await productCountsUp({ context, name: "0009-product-counts" } as never);
    expect(await kept()).toEqual(await counted());
  });
});
