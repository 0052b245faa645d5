import { QueryTypes } from "sequelize";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../app/models/db.server";
import { setPaymentGateway } from "../../app/payments/index.server";
import { addToCart } from "../../app/services/cart-lines.server";
import { captureOrderPayment, createOrderFromCart } from "../../app/services/checkout.server";
import { createMigrator, migrateToLatest } from "../../db/migrator";
import { migrations } from "../../db/migrations/index";
import { resetDatabase } from "../support/database";
import { cartOf, createShopper, payerAnswers, saveAddress } from "./checkout-support";

/**
 * Migration 0011 (sizes and colours, docs/decisions/0012) over data in the
 * shape the shop had before it: products with one stock, cart lines and order
 * lines by product, reviews. Afterwards every product is one variant holding
 * its stock, carts and orders are what they were (with the variant filled in)
 * and everything can still be bought through the services.
 */

const select = <T extends object>(sql: string, replacements: Record<string, unknown> = {}) =>
  getDb().sequelize.query<T>(sql, { type: QueryTypes.SELECT, replacements });

const ids = {
  alice: "00000000-0000-4000-8000-00000000000a",
  bob: "00000000-0000-4000-8000-00000000000b",
  tee: "00000000-0000-4000-8000-000000000001",
  boots: "00000000-0000-4000-8000-000000000002",
  scarf: "00000000-0000-4000-8000-000000000003",
  gone: "00000000-0000-4000-8000-000000000004",
  aliceCart: "00000000-0000-4000-8000-0000000000c1",
  bobCart: "00000000-0000-4000-8000-0000000000c2",
  order: "00000000-0000-4000-8000-0000000000d1",
};

/** Today's data, written as the shop wrote it before variants existed. */
async function writeTodaysData() {
  await getDb().sequelize.query(`
    INSERT INTO users (id, user_name, email, password_hash) VALUES
      ('${ids.alice}', 'Alice', 'alice@example.com', 'x'),
      ('${ids.bob}', 'Bob', 'bob@example.com', 'x');
    INSERT INTO products (id, image, title, description, category, brand, price, sale_price, total_stock, material) VALUES
      ('${ids.tee}', '/t.svg', 'Old Tee', 'A tee', 'men', 'nike', 20.00, 15.00, 5, 'Cotton'),
      ('${ids.boots}', '/b.svg', 'Old Boots', 'Boots', 'footwear', 'h&m', 90.00, NULL, 0, NULL),
      ('${ids.scarf}', '/s.svg', 'Old Scarf', 'A scarf', 'accessories', 'zara', 12.50, NULL, 12, NULL),
      ('${ids.gone}', '/g.svg', 'Gone Hat', 'Deleted later', 'accessories', 'puma', 9.00, NULL, 3, NULL);
    INSERT INTO carts (id, user_id) VALUES ('${ids.aliceCart}', '${ids.alice}'), ('${ids.bobCart}', '${ids.bob}');
    INSERT INTO cart_items (cart_id, product_id, quantity) VALUES
      ('${ids.aliceCart}', '${ids.tee}', 2), ('${ids.aliceCart}', '${ids.scarf}', 1),
      ('${ids.bobCart}', '${ids.scarf}', 4);
    INSERT INTO orders (id, user_id, cart_id, address_info, order_status, payment_status, total_amount,
                        payment_id, payer_id, capture_id) VALUES
      ('${ids.order}', '${ids.bob}', NULL,
       '{"addressId": null, "address": "1 Road", "city": "Town", "pincode": "1", "phone": "5", "notes": "n"}',
       'confirmed', 'paid', 64.00, 'PAY-OLD-1', 'PAYER-1', 'CAPTURE-1');
    INSERT INTO order_items (order_id, product_id, title, image, price, quantity) VALUES
      ('${ids.order}', '${ids.tee}', 'Old Tee', '/t.svg', 15.00, 2),
      ('${ids.order}', '${ids.scarf}', 'Old Scarf', '/s.svg', 12.50, 2),
      ('${ids.order}', '${ids.gone}', 'Gone Hat', '/g.svg', 9.00, 1);
    INSERT INTO reviews (product_id, user_id, user_name, review_message, review_value) VALUES
      ('${ids.tee}', '${ids.bob}', 'Bob', 'Fits well', 4),
      ('${ids.scarf}', '${ids.bob}', 'Bob', 'Warm', 5);
    -- A product deleted after it was ordered: its order line keeps no product.
    DELETE FROM products WHERE id = '${ids.gone}';
  `);
}

const ORDERS_SQL = `SELECT * FROM orders ORDER BY id`;
const ORDER_ITEMS_SQL = `SELECT id, order_id, product_id, title, image, price, quantity FROM order_items ORDER BY title`;
const REVIEWS_SQL = `SELECT * FROM reviews ORDER BY product_id, user_id`;
const PRODUCTS_SQL = `SELECT id, title, price, sale_price, total_stock, average_review, material, effective_price
                        FROM products ORDER BY title`;
const CART_SQL = `SELECT cart_id, product_id, quantity FROM cart_items ORDER BY cart_id, product_id`;

let before: Record<"orders" | "items" | "reviews" | "products" | "carts", object[]>;

async function snapshot() {
  return {
    orders: await select(ORDERS_SQL),
    items: await select(ORDER_ITEMS_SQL),
    reviews: await select(REVIEWS_SQL),
    products: await select(PRODUCTS_SQL),
    carts: await select(CART_SQL),
  };
}

interface VariantRow {
  id: string;
  productId: string;
  sku: string;
  size: string | null;
  colour: string | null;
  totalStock: number;
}

async function variantsOf(productId: string) {
  return select<VariantRow>(
    `SELECT id, product_id AS "productId", sku, size, colour, total_stock AS "totalStock"
       FROM product_variants WHERE product_id = :productId`,
    { productId },
  );
}

describe("migration 0011 over the shop's data before sizes and colours", () => {
  beforeAll(async () => {
    await resetDatabase();
    setPaymentGateway(undefined);
    const migrator = createMigrator(getDb().sequelize);
    const reverted = await migrator.down({ to: "0011-product-variants" });
    // 0011 and whatever came after it, newest first.
    const fromVariants = migrations.slice(migrations.findIndex((m) => m.name === "0011-product-variants"));
    expect(reverted.map((migration) => migration.name)).toEqual(fromVariants.map((m) => m.name).reverse());
    await writeTodaysData();
    before = await snapshot();
    expect(await migrator.up()).toHaveLength(fromVariants.length);
  });

  // Whatever happens above, later test files need the full schema, and an empty shop.
  afterAll(async () => {
    await migrateToLatest(getDb().sequelize);
    await resetDatabase();
  });

  it("ends fully migrated", async () => {
    const migrator = createMigrator(getDb().sequelize);
    expect((await migrator.executed()).map((m) => m.name)).toEqual(migrations.map((m) => m.name));
    expect(await migrator.pending()).toEqual([]);
  });

  it("gives every product one variant, without size or colour, holding its stock; the product row unchanged", async () => {
    const after = await select<{ title: string }>(PRODUCTS_SQL);
    expect(after).toEqual(before.products);
    for (const [productId, stock] of [
      [ids.tee, 5],
      [ids.boots, 0],
      [ids.scarf, 12],
    ] as const) {
      const variants = await variantsOf(productId);
      expect(variants).toHaveLength(1);
      expect(variants[0]).toMatchObject({ size: null, colour: null, totalStock: stock });
      expect(variants[0]!.sku).toMatch(/^[A-Z]+-\d+$/);
    }
    const [counts] = await select<{ total: number; distinct: number }>(
      `SELECT count(*)::int AS total, count(DISTINCT lower(sku))::int AS distinct FROM product_variants`,
    );
    expect(counts).toEqual({ total: 3, distinct: 3 });
  });

  it("keeps every cart line's quantity, now on the product's variant", async () => {
    expect(await select(CART_SQL)).toEqual(before.carts);
    const lines = await select<{ productId: string; variantProduct: string }>(
      `SELECT ci.product_id AS "productId", v.product_id AS "variantProduct"
         FROM cart_items ci JOIN product_variants v ON v.id = ci.variant_id`,
    );
    expect(lines).toHaveLength(3);
    for (const line of lines) expect(line.variantProduct).toBe(line.productId);
  });

  it("leaves orders and their lines as they were, each line naming its product's variant and SKU", async () => {
    // Later migrations add columns (the version, tracking, money times, the money's parts) and fill some
    // of them, which counts as a change of the row (its version may have been raised); every column that
    // was there keeps its value.
    const orders = await select<Record<string, unknown>>(ORDERS_SQL);
    for (const order of orders) expect(order.version).toBeGreaterThanOrEqual(1);
    const columns = Object.keys((before.orders as Record<string, unknown>[])[0]!);
    expect(orders.map((row) => Object.fromEntries(columns.map((column) => [column, row[column]])))).toEqual(
      before.orders,
    );
    // 0020: an order from before delivery and discounts cost its items: subtotal = total, zeros, no snapshots.
    for (const row of orders) {
      expect(row).toMatchObject({
        subtotal: row.total_amount,
        shipping_amount: "0.00",
        discount_amount: "0.00",
        shipping_method_name: null,
        discount_code: null,
      });
    }
    expect(await select(ORDER_ITEMS_SQL)).toEqual(before.items);
    const lines = await select<{
      title: string;
      productId: string | null;
      variantId: string | null;
      sku: string | null;
      size: string | null;
      colour: string | null;
    }>(
      `SELECT title, product_id AS "productId", variant_id AS "variantId", sku, size, colour
         FROM order_items ORDER BY title`,
    );
    for (const line of lines.filter((candidate) => candidate.productId !== null)) {
      const [variant] = await variantsOf(line.productId!);
      expect(line).toMatchObject({ variantId: variant!.id, sku: variant!.sku, size: null, colour: null });
    }
    // The line of the deleted product has no variant to name.
    expect(lines.find((line) => line.title === "Gone Hat")).toMatchObject({
      productId: null,
      variantId: null,
      sku: null,
    });
  });

  it("keeps every review", async () => {
    expect(await select(REVIEWS_SQL)).toEqual(before.reviews);
  });

  it("lets a migrated cart check out and capture through the services, taking the stock from the variants", async () => {
    const alice = { id: ids.alice };
    const address = await saveAddress(alice.id);
    const created = await createOrderFromCart(alice, { addressId: address._id });
    expect(created.order.totalAmount).toBe(42.5);
    const answer = await payerAnswers(created.order.paymentId!, "approve");
    const outcome = await captureOrderPayment(alice, { paymentId: answer.token });
    expect(outcome.order).toMatchObject({ paymentStatus: "paid", orderStatus: "confirmed" });
    expect((await variantsOf(ids.tee))[0]!.totalStock).toBe(3);
    expect((await variantsOf(ids.scarf))[0]!.totalStock).toBe(11);
    expect(await cartOf(alice.id)).toEqual({});
  });

  it("keeps every product in stock buyable: add to cart without a variant, then pay", async () => {
    for (const productId of [ids.tee, ids.scarf]) {
      const shopper = await createShopper();
      const stockBefore = (await variantsOf(productId))[0]!.totalStock;
      await addToCart(shopper.id, productId, 1);
      const address = await saveAddress(shopper.id);
      const created = await createOrderFromCart(shopper, { addressId: address._id });
      const answer = await payerAnswers(created.order.paymentId!, "approve");
      const outcome = await captureOrderPayment(shopper, { paymentId: answer.token });
      expect(outcome.order).toMatchObject({ paymentStatus: "paid" });
      expect((await variantsOf(productId))[0]!.totalStock).toBe(stockBefore - 1);
      const [product] = await select<{ stock: number }>(
        `SELECT total_stock AS stock FROM products WHERE id = :productId`,
        {
          productId,
        },
      );
      expect(product!.stock).toBe(stockBefore - 1);
    }
    // The sold-out one stays unbuyable, as before.
    const shopper = await createShopper();
    await expect(addToCart(shopper.id, ids.boots, 1)).rejects.toMatchObject({
      message: "Only 0 quantity can be added for this item",
    });
  });
});
