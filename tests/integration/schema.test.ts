import { QueryTypes } from "sequelize";
import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "../../app/models/db.server";
import { createTestUser, resetDatabase } from "../support/database";

/** PostgreSQL error codes (SQLSTATE). */
const CHECK_VIOLATION = "23514";
const UNIQUE_VIOLATION = "23505";
const FOREIGN_KEY_VIOLATION = "23503";
const NOT_NULL_VIOLATION = "23502";

function sql<T extends object = Record<string, unknown>>(
  text: string,
  replacements: Record<string, unknown> = {},
) {
  return getDb().sequelize.query<T>(text, { replacements, type: QueryTypes.SELECT });
}

/** Runs a statement that must fail with the given SQLSTATE. */
async function expectRefused(text: string, replacements: Record<string, unknown>, code: string) {
  const error = await getDb()
    .sequelize.query(text, { replacements })
    .then(
      () => null,
      (caught: unknown) => caught as { parent?: { code?: string } },
    );
  expect(error, `expected SQLSTATE ${code} from: ${text}`).not.toBeNull();
  expect(error?.parent?.code).toBe(code);
}

const productDefaults = {
  image: "/images/products/x.svg",
  title: "Test tee",
  description: "A tee",
  category: "men",
  brand: "nike",
  price: "20.00",
  salePrice: null as string | null,
  totalStock: 5,
};

async function insertProduct(overrides: Partial<typeof productDefaults> = {}): Promise<string> {
  const values = { ...productDefaults, ...overrides };
  const [row] = await sql<{ id: string }>(
    `INSERT INTO products (image, title, description, category, brand, price, sale_price, total_stock)
     VALUES (:image, :title, :description, :category, :brand, :price, :salePrice, :totalStock) RETURNING id`,
    values,
  );
  return row!.id;
}

const insertProductSql = `INSERT INTO products (image, title, description, category, brand, price, sale_price, total_stock)
  VALUES (:image, :title, :description, :category, :brand, :price, :salePrice, :totalStock)`;

async function insertCart(userId: string): Promise<string> {
  const [row] = await sql<{ id: string }>("INSERT INTO carts (user_id) VALUES (:userId) RETURNING id", {
    userId,
  });
  return row!.id;
}

async function insertOrder(userId: string, cartId: string | null = null): Promise<string> {
  const [row] = await sql<{ id: string }>(
    `INSERT INTO orders (user_id, cart_id, address_info, total_amount)
     VALUES (:userId, :cartId, '{"address":"1 Main St"}'::jsonb, 20) RETURNING id`,
    { userId, cartId },
  );
  return row!.id;
}

async function count(table: string, where = "true", replacements: Record<string, unknown> = {}) {
  const [row] = await sql<{ n: string }>(`SELECT count(*) AS n FROM ${table} WHERE ${where}`, replacements);
  return Number(row!.n);
}

const insertUserSql = `INSERT INTO users (user_name, email, password_hash) VALUES (:name, :email, 'x')`;

/** The product's effective_price column as PostgreSQL returns it ("15.50"). */
async function prices(id: string): Promise<string> {
  const [row] = await sql<{ effective_price: string }>(
    "SELECT effective_price FROM products WHERE id = :id",
    {
      id,
    },
  );
  return row!.effective_price;
}

/** A cart line of a product's variant (every product has one): `${INSERT_CART_ITEM} <quantity> ${OF_FIRST_VARIANT}`. */
const INSERT_CART_ITEM =
  "INSERT INTO cart_items (cart_id, product_id, variant_id, quantity) SELECT :cartId, :productId, v.id,";
const OF_FIRST_VARIANT = "FROM product_variants v WHERE v.product_id = :productId";

describe("users", () => {
  beforeEach(resetDatabase);

  it("refuses an email that is not lower-case (CHECK email = lower(email))", async () => {
    await expectRefused(insertUserSql, { name: "Ann", email: "Ann@Example.com" }, CHECK_VIOLATION);
  });

  it("refuses a second user with the same email", async () => {
    await sql(insertUserSql, { name: "Ann", email: "ann@example.com" });
    await expectRefused(insertUserSql, { name: "Other", email: "ann@example.com" }, UNIQUE_VIOLATION);
  });

  it("refuses a duplicate email whatever its case, so no mixed-case twin can exist", async () => {
    await sql(insertUserSql, { name: "Ann", email: "ann@example.com" });
    const error = await getDb()
      .sequelize.query(insertUserSql, { replacements: { name: "Other", email: "ANN@example.com" } })
      .then(
        () => null,
        (caught: { parent?: { code?: string } }) => caught,
      );
    expect([CHECK_VIOLATION, UNIQUE_VIOLATION]).toContain(error?.parent?.code);
    expect(await count("users", "lower(email) = 'ann@example.com'")).toBe(1);
  });

  it("refuses an unknown role and a blank user name", async () => {
    await expectRefused(
      "INSERT INTO users (user_name, email, password_hash, role) VALUES ('Ann', 'ann@example.com', 'x', 'root')",
      {},
      CHECK_VIOLATION,
    );
    await expectRefused(insertUserSql, { name: "   ", email: "ann@example.com" }, CHECK_VIOLATION);
  });
});

describe("products", () => {
  beforeEach(resetDatabase);

  it("accepts a valid product with stock 0 and sale price 0 or none", async () => {
    await insertProduct({ totalStock: 0 });
    await insertProduct({ title: "On no sale", salePrice: "0" });
    expect(await count("products")).toBe(2);
  });

  it("refuses a negative total_stock", async () => {
    await expectRefused(insertProductSql, { ...productDefaults, totalStock: -1 }, CHECK_VIOLATION);
  });

  it("refuses stock going below zero through an update", async () => {
    const id = await insertProduct({ totalStock: 1 });
    await expectRefused(
      "UPDATE products SET total_stock = total_stock - 2 WHERE id = :id",
      { id },
      CHECK_VIOLATION,
    );
  });

  it.each(["0", "-5.00"])("refuses price %s (must be > 0)", async (price) => {
    await expectRefused(insertProductSql, { ...productDefaults, price }, CHECK_VIOLATION);
  });

  it.each([
    ["equal to the price", "20.00"],
    ["above the price", "25.00"],
    ["negative", "-1.00"],
  ])("refuses a sale price %s", async (_label, salePrice) => {
    await expectRefused(insertProductSql, { ...productDefaults, salePrice }, CHECK_VIOLATION);
  });

  it.each(["shoes", "Men", ""])("refuses the category %j", async (category) => {
    await expectRefused(insertProductSql, { ...productDefaults, category }, CHECK_VIOLATION);
  });

  it.each(["gucci", "Nike", "levis"])("refuses the brand %j", async (brand) => {
    await expectRefused(insertProductSql, { ...productDefaults, brand }, CHECK_VIOLATION);
  });

  it("accepts every listed category and brand", async () => {
    const categories = ["men", "women", "kids", "accessories", "footwear"];
    const brands = ["nike", "adidas", "puma", "levi", "zara", "h&m"];
    for (const [index, category] of categories.entries()) {
      await insertProduct({ title: `c${index}`, category });
    }
    for (const [index, brand] of brands.entries()) {
      await insertProduct({ title: `b${index}`, brand });
    }
    expect(await count("products")).toBe(categories.length + brands.length);
  });

  it("refuses an average_review outside 0..5", async () => {
    const id = await insertProduct();
    await expectRefused("UPDATE products SET average_review = 5.5 WHERE id = :id", { id }, CHECK_VIOLATION);
  });

  it("computes effective_price as the sale price when above 0, else the price, and keeps it current", async () => {
    const onSale = await insertProduct({ price: "20.00", salePrice: "15.50" });
    const zeroSale = await insertProduct({ title: "b", price: "20.00", salePrice: "0" });
    const noSale = await insertProduct({ title: "c", price: "20.00", salePrice: null });
    expect(await prices(onSale)).toBe("15.50");
    expect(await prices(zeroSale)).toBe("20.00");
    expect(await prices(noSale)).toBe("20.00");

    await sql("UPDATE products SET sale_price = 9.99 WHERE id = :id RETURNING id", { id: noSale });
    expect(await prices(noSale)).toBe("9.99");
    await sql("UPDATE products SET sale_price = NULL, price = 30 WHERE id = :id RETURNING id", {
      id: onSale,
    });
    expect(await prices(onSale)).toBe("30.00");
  });

  it("keeps effective_price derived: a direct write of it is replaced by the price paid", async () => {
    const id = await insertProduct();
    const before = await prices(id);
    await sql("UPDATE products SET effective_price = 1 WHERE id = :id RETURNING id", { id });
    expect(await prices(id)).toBe(before);
    expect(before).not.toBe("1.00");
  });
});

describe("carts and reviews", () => {
  beforeEach(resetDatabase);

  it.each([0, -1])("refuses a cart item quantity of %i", async (quantity) => {
    const user = await createTestUser();
    const cartId = await insertCart(user.id);
    const productId = await insertProduct();
    await expectRefused(
      `${INSERT_CART_ITEM} :quantity ${OF_FIRST_VARIANT}`,
      { cartId, productId, quantity },
      CHECK_VIOLATION,
    );
  });

  it("refuses the same variant twice in one cart", async () => {
    const user = await createTestUser();
    const cartId = await insertCart(user.id);
    const productId = await insertProduct();
    const insertItem = `${INSERT_CART_ITEM} 1 ${OF_FIRST_VARIANT}`;
    await sql(`${insertItem} RETURNING id`, { cartId, productId });
    await expectRefused(insertItem, { cartId, productId }, UNIQUE_VIOLATION);
  });

  it("allows the same product in two different carts", async () => {
    const productId = await insertProduct();
    for (const email of ["a@example.com", "b@example.com"]) {
      const user = await createTestUser({ email });
      const cartId = await insertCart(user.id);
      await sql(`${INSERT_CART_ITEM} 1 ${OF_FIRST_VARIANT} RETURNING id`, {
        cartId,
        productId,
      });
    }
    expect(await count("cart_items")).toBe(2);
  });

  it("refuses a second cart for one user", async () => {
    const user = await createTestUser();
    await insertCart(user.id);
    await expectRefused(
      "INSERT INTO carts (user_id) VALUES (:userId)",
      { userId: user.id },
      UNIQUE_VIOLATION,
    );
  });

  const insertReview = `INSERT INTO reviews (product_id, user_id, user_name, review_message, review_value)
    VALUES (:productId, :userId, 'Ann', :message, :value)`;

  it.each([0, 6, -1])("refuses review_value %i (must be 1 to 5)", async (value) => {
    const user = await createTestUser();
    const productId = await insertProduct();
    await expectRefused(
      insertReview,
      { productId, userId: user.id, message: "Nice", value },
      CHECK_VIOLATION,
    );
  });

  it("accepts review values 1 and 5", async () => {
    const productId = await insertProduct();
    for (const [index, value] of [1, 5].entries()) {
      const user = await createTestUser({ email: `r${index}@example.com` });
      await sql(`${insertReview} RETURNING id`, { productId, userId: user.id, message: "ok", value });
    }
    expect(await count("reviews")).toBe(2);
  });

  it("refuses a second review by the same user for the same product", async () => {
    const user = await createTestUser();
    const productId = await insertProduct();
    await sql(`${insertReview} RETURNING id`, { productId, userId: user.id, message: "Nice", value: 4 });
    await expectRefused(
      insertReview,
      { productId, userId: user.id, message: "Again", value: 1 },
      UNIQUE_VIOLATION,
    );
  });

  it("refuses a blank review message", async () => {
    const user = await createTestUser();
    const productId = await insertProduct();
    await expectRefused(
      insertReview,
      { productId, userId: user.id, message: "   ", value: 3 },
      CHECK_VIOLATION,
    );
  });
});

describe("orders", () => {
  beforeEach(resetDatabase);

  it("refuses an unknown order or payment status", async () => {
    const user = await createTestUser();
    const orderId = await insertOrder(user.id);
    await expectRefused(
      "UPDATE orders SET order_status = 'shipped' WHERE id = :orderId",
      { orderId },
      CHECK_VIOLATION,
    );
    await expectRefused(
      "UPDATE orders SET payment_status = 'done' WHERE id = :orderId",
      { orderId },
      CHECK_VIOLATION,
    );
  });

  it("defaults to pending / pending / paypal", async () => {
    const user = await createTestUser();
    const orderId = await insertOrder(user.id);
    const [order] = await sql<{ order_status: string; payment_status: string; payment_method: string }>(
      "SELECT order_status, payment_status, payment_method FROM orders WHERE id = :orderId",
      { orderId },
    );
    expect(order).toEqual({ order_status: "pending", payment_status: "pending", payment_method: "paypal" });
  });

  it("refuses an order for a user that does not exist", async () => {
    await expectRefused(
      `INSERT INTO orders (user_id, address_info, total_amount)
       VALUES ('00000000-0000-4000-8000-000000000000', '{}'::jsonb, 1)`,
      {},
      FOREIGN_KEY_VIOLATION,
    );
  });

  it("refuses an order without address info", async () => {
    const user = await createTestUser();
    await expectRefused(
      "INSERT INTO orders (user_id, address_info, total_amount) VALUES (:userId, NULL, 1)",
      { userId: user.id },
      NOT_NULL_VIOLATION,
    );
  });
});

describe("ON DELETE rules", () => {
  beforeEach(resetDatabase);

  it("deleting a product removes it from carts but keeps order history with product_id NULL", async () => {
    const user = await createTestUser();
    const cartId = await insertCart(user.id);
    const productId = await insertProduct({ title: "Gone tee" });
    await sql(`${INSERT_CART_ITEM} 2 ${OF_FIRST_VARIANT} RETURNING id`, {
      cartId,
      productId,
    });
    const orderId = await insertOrder(user.id, cartId);
    await sql(
      `INSERT INTO order_items (order_id, product_id, title, image, price, quantity)
       VALUES (:orderId, :productId, 'Gone tee', '/images/x.svg', 20, 2) RETURNING id`,
      { orderId, productId },
    );

    await sql("DELETE FROM products WHERE id = :productId RETURNING id", { productId });

    expect(await count("cart_items")).toBe(0);
    expect(await count("carts")).toBe(1);
    const items = await sql<{ product_id: string | null; title: string; quantity: number }>(
      "SELECT product_id, title, quantity FROM order_items",
    );
    expect(items).toEqual([{ product_id: null, title: "Gone tee", quantity: 2 }]);
  });

  it("deleting a product removes its reviews", async () => {
    const user = await createTestUser();
    const productId = await insertProduct();
    await sql(
      `INSERT INTO reviews (product_id, user_id, user_name, review_message, review_value)
       VALUES (:productId, :userId, 'Ann', 'Nice', 5) RETURNING id`,
      { productId, userId: user.id },
    );
    await sql("DELETE FROM products WHERE id = :productId RETURNING id", { productId });
    expect(await count("reviews")).toBe(0);
  });

  it("refuses to delete a user who has orders (RESTRICT) and keeps everything of theirs", async () => {
    const user = await createTestUser();
    await insertOrder(user.id);
    await sql(
      "INSERT INTO sessions (user_id, expires_at) VALUES (:userId, now() + interval '1 day') RETURNING id",
      {
        userId: user.id,
      },
    );
    await expectRefused("DELETE FROM users WHERE id = :userId", { userId: user.id }, FOREIGN_KEY_VIOLATION);
    expect(await count("users")).toBe(1);
    expect(await count("orders")).toBe(1);
    expect(await count("sessions")).toBe(1);
  });

  it("deleting a user without orders takes their sessions, cart, cart items, addresses and reviews along", async () => {
    const user = await createTestUser();
    const other = await createTestUser({ email: "other@example.com" });
    const productId = await insertProduct();
    for (const owner of [user.id, other.id]) {
      await sql(
        "INSERT INTO sessions (user_id, expires_at) VALUES (:owner, now() + interval '1 day') RETURNING id",
        {
          owner,
        },
      );
      const cartId = await insertCart(owner);
      await sql(`${INSERT_CART_ITEM} 1 ${OF_FIRST_VARIANT} RETURNING id`, {
        cartId,
        productId,
      });
      await sql(
        `INSERT INTO addresses (user_id, address, city, pincode, phone, notes)
         VALUES (:owner, '1 Main St', 'Springfield', '12345', '555-0100', 'Ring twice') RETURNING id`,
        { owner },
      );
      await sql(
        `INSERT INTO reviews (product_id, user_id, user_name, review_message, review_value)
         VALUES (:productId, :owner, 'Ann', 'Nice', 5) RETURNING id`,
        { productId, owner },
      );
    }

    await sql("DELETE FROM users WHERE id = :userId RETURNING id", { userId: user.id });

    for (const table of ["sessions", "carts", "addresses", "reviews"]) {
      expect(await count(table, "user_id = :userId", { userId: user.id }), table).toBe(0);
      expect(await count(table, "user_id = :userId", { userId: other.id }), table).toBe(1);
    }
    expect(await count("cart_items")).toBe(1);
    expect(await count("products")).toBe(1);
  });
});
