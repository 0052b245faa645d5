import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { QueryTypes } from "sequelize";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "../../app/models/db.server";
import { BRANDS, CATEGORIES } from "../../app/models/index.server";
import { createOrPromoteAdmin, verifyLogin } from "../../app/services/users.server";
import {
  DEMO_ACCOUNTS,
  isEmptyShop,
  seedDemoAccounts,
  seedDemoCatalog,
  seedLargeCatalog,
} from "../../db/seed/seed";
import { DEMO_PRODUCTS } from "../../db/seed/catalog";
import type { Category } from "../../app/lib/shared/catalog-options";
import {
  COLOURS,
  compareVariants,
  LOW_STOCK_THRESHOLD,
  MAX_SKU_LENGTH,
  ONE_SIZE,
  SIZE_SCALES,
  SKU_PATTERN,
} from "../../app/lib/shared/variants";
import { createTestUser, resetDatabase } from "../support/database";
import { runScript } from "../support/scripts";

async function allProducts() {
  return getDb().models.Product.findAll({
    attributes: ["title", "image", "category", "brand", "price", "salePrice", "totalStock"],
    raw: true,
  });
}

describe("seedDemoCatalog", () => {
  beforeEach(resetDatabase);

  it("adds at least 48 products that cover every category and brand", async () => {
    await seedDemoCatalog(getDb());
    const products = await allProducts();
    expect(products.length).toBeGreaterThanOrEqual(48);
    expect(new Set(products.map((p) => p.category))).toEqual(new Set(CATEGORIES));
    expect(new Set(products.map((p) => p.brand))).toEqual(new Set(BRANDS));
    expect(new Set(products.map((p) => p.title)).size).toBe(products.length);
  });

  it("adds the demo's delivery options once: Standard $4.95, 3–5 days, free over $50; Express $12.95, 1–2 days", async () => {
    await seedDemoCatalog(getDb());
    await seedDemoCatalog(getDb());
    const { listActiveShippingMethods } = await import("../../app/services/shipping.server");
    expect((await listActiveShippingMethods()).map(({ _id: _id, ...method }) => method)).toEqual([
      { name: "Standard", price: 4.95, estimatedDays: "3–5 days", freeOver: 50 },
      { name: "Express", price: 12.95, estimatedDays: "1–2 days", freeOver: null },
    ]);
  });

  it("puts some products on sale, below their price", async () => {
    await seedDemoCatalog(getDb());
    const onSale = (await allProducts()).filter((p) => p.salePrice !== null && Number(p.salePrice) > 0);
    expect(onSale.length).toBeGreaterThanOrEqual(3);
    for (const product of onSale) expect(Number(product.salePrice)).toBeLessThan(Number(product.price));
  });

  it("has several low-stock products (1 to 9) and at least two that are sold out", async () => {
    await seedDemoCatalog(getDb());
    const products = await allProducts();
    expect(products.filter((p) => p.totalStock >= 1 && p.totalStock <= 9).length).toBeGreaterThanOrEqual(3);
    expect(products.filter((p) => p.totalStock === 0).length).toBeGreaterThanOrEqual(2);
  });

  it("gives every product a gallery of its drawing, with the drawing's size and the title as alt text", async () => {
    await seedDemoCatalog(getDb());
    const rows = await getDb().sequelize.query<{
      title: string;
      image: string;
      pictures: { url: string; alt: string; width: number; height: number; position: number }[];
    }>(
      `SELECT p.title, p.image, json_agg(json_build_object('url', i.url, 'alt', i.alt, 'width', i.width,
              'height', i.height, 'position', i.position)) AS pictures
         FROM products p JOIN product_images i ON i.product_id = p.id GROUP BY p.id`,
      { type: QueryTypes.SELECT },
    );
    expect(rows).toHaveLength(DEMO_PRODUCTS.length);
    for (const row of rows)
      expect(row.pictures).toEqual([
        { url: row.image, alt: row.title, width: 600, height: 600, position: 0 },
      ]);
  });

  it("adds exactly 3 feature images", async () => {
    await seedDemoCatalog(getDb());
    expect(await getDb().models.FeatureImage.count()).toBe(3);
  });

  it("points every product and feature image at a file that exists under public/", async () => {
    await seedDemoCatalog(getDb());
    const images = [
      ...(await allProducts()).map((p) => p.image),
      ...(await getDb().models.FeatureImage.findAll({ raw: true })).map((f) => f.image),
    ];
    const missing = images.filter((image) => {
      expect(image.startsWith("/")).toBe(true);
      return !existsSync(path.join("public", image));
    });
    expect(missing).toEqual([]);
  });

  it("adds nothing when run a second time", async () => {
    await seedDemoCatalog(getDb());
    const products = await getDb().models.Product.count();
    const features = await getDb().models.FeatureImage.count();
    await seedDemoCatalog(getDb());
    expect(await getDb().models.Product.count()).toBe(products);
    expect(await getDb().models.FeatureImage.count()).toBe(features);
  });
});

async function allVariants() {
  const [rows] = await getDb().sequelize.query(
    `SELECT p.title, p.category, p.total_stock AS "productStock", v.sku, v.size, v.colour,
            v.position, v.total_stock AS "totalStock"
       FROM product_variants v JOIN products p ON p.id = v.product_id
      ORDER BY p.title, v.position`,
  );
  return rows as {
    title: string;
    category: Category;
    productStock: number;
    sku: string;
    size: string | null;
    colour: string | null;
    position: number;
    totalStock: number;
  }[];
}

function byProduct<T extends { title: string }>(rows: T[]): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) groups.set(row.title, [...(groups.get(row.title) ?? []), row]);
  return groups;
}

describe("the demo catalogue's sizes and colours", () => {
  beforeEach(resetDatabase);

  it("sells each product in its category's sizes: letters, ages, EU shoe sizes, one size for accessories", async () => {
    await seedDemoCatalog(getDb());
    const variants = await allVariants();
    for (const variant of variants) {
      expect(SIZE_SCALES[variant.category].map((size) => size.value)).toContain(variant.size);
    }
    const sizesOf = (category: Category) =>
      new Set(variants.filter((v) => v.category === category).map((v) => v.size));
    expect(sizesOf("men")).toEqual(new Set(["XS", "S", "M", "L", "XL", "XXL"]));
    expect(sizesOf("women")).toEqual(new Set(["XS", "S", "M", "L", "XL", "XXL"]));
    expect([...sizesOf("footwear")]).toEqual(expect.arrayContaining(["EU 39", "EU 42", "EU 45"]));
    expect([...sizesOf("kids")].every((size) => /^\d+-\d+Y$/.test(size!))).toBe(true);
    expect(sizesOf("accessories")).toEqual(new Set([ONE_SIZE]));
    // Every clothing and shoe product comes in a real size run, not one size.
    for (const [title, rows] of byProduct(variants)) {
      if (rows[0]!.category !== "accessories")
        expect(new Set(rows.map((r) => r.size)).size, title).toBeGreaterThanOrEqual(5);
    }
  });

  it("keeps each product's stock the sum of its variants', with some sizes sold out and some low", async () => {
    await seedDemoCatalog(getDb());
    const variants = await allVariants();
    for (const [title, rows] of byProduct(variants)) {
      const sum = rows.reduce((total, row) => total + row.totalStock, 0);
      expect(rows[0]!.productStock, title).toBe(sum);
      expect(sum, title).toBe(DEMO_PRODUCTS.find((product) => product.title === title)!.totalStock);
    }
    const inStockProducts = [...byProduct(variants).values()].filter((rows) => rows[0]!.productStock > 0);
    const withSoldOutSize = inStockProducts.filter((rows) => rows.some((row) => row.totalStock === 0));
    expect(withSoldOutSize.length).toBeGreaterThanOrEqual(5);
    const low = variants.filter((row) => row.totalStock > 0 && row.totalStock < LOW_STOCK_THRESHOLD);
    expect(low.length).toBeGreaterThanOrEqual(5);
  });

  it("sells some products in two or three of the shop's colours", async () => {
    await seedDemoCatalog(getDb());
    const variants = await allVariants();
    const colourValues = COLOURS.map((colour) => colour.value);
    for (const row of variants) if (row.colour !== null) expect(colourValues).toContain(row.colour);
    const colourCounts = [...byProduct(variants).values()].map(
      (rows) => new Set(rows.map((row) => row.colour).filter((colour) => colour !== null)).size,
    );
    expect(colourCounts.filter((count) => count === 2).length).toBeGreaterThanOrEqual(2);
    expect(colourCounts.filter((count) => count === 3).length).toBeGreaterThanOrEqual(2);
    expect(Math.max(...colourCounts)).toBeLessThanOrEqual(3);
  });

  it("writes the catalogue's own variants (readable unique SKUs, display positions), never the database's default one", async () => {
    await seedDemoCatalog(getDb());
    const variants = await allVariants();
    expect(variants).toHaveLength(
      DEMO_PRODUCTS.reduce((total, product) => total + product.variants.length, 0),
    );
    expect(new Set(variants.map((row) => row.sku.toLowerCase())).size).toBe(variants.length);
    for (const row of variants) {
      expect(row.sku).toMatch(SKU_PATTERN);
      expect(row.sku.length).toBeLessThanOrEqual(MAX_SKU_LENGTH);
    }
    expect(
      variants.find(
        (row) => row.title === "Dri-FIT Training Tee" && row.size === "M" && row.colour === "black",
      ),
    ).toMatchObject({ sku: "DRI-FIT-TRAINING-TEE-M-BLACK" });
    for (const rows of byProduct(variants).values()) {
      expect(rows.map((row) => row.position)).toEqual(rows.map((_, at) => at));
      expect([...rows].sort(compareVariants)).toEqual(rows);
    }
  });

  it("adds no variants when run a second time", async () => {
    await seedDemoCatalog(getDb());
    const before = await allVariants();
    await seedDemoCatalog(getDb());
    expect(await allVariants()).toEqual(before);
  });
});

describe("seedLargeCatalog", () => {
  beforeEach(resetDatabase);

  it("gives every generated clothing product four to six variants whose stock adds up to the product's", async () => {
    await seedLargeCatalog(getDb(), 300);
    const variants = await allVariants();
    const products = byProduct(variants);
    expect(products.size).toBe(300);
    for (const [title, rows] of products) {
      expect(rows[0]!.productStock, title).toBe(rows.reduce((total, row) => total + row.totalStock, 0));
      expect(
        rows.every((row) => row.sku.startsWith("GEN-")),
        title,
      ).toBe(true);
      if (rows[0]!.category !== "accessories") {
        expect(rows.length, title).toBeGreaterThanOrEqual(4);
        expect(rows.length, title).toBeLessThanOrEqual(6);
      }
    }
  });

  it("continues the SKUs of an earlier run instead of colliding with them", async () => {
    await seedLargeCatalog(getDb(), 20);
    await seedLargeCatalog(getDb(), 20);
    expect(await getDb().models.Product.count()).toBe(40);
    const variants = await allVariants();
    expect(new Set(variants.map((row) => row.sku)).size).toBe(variants.length);
  });
});

describe("seedDemoAccounts and isEmptyShop", () => {
  beforeEach(resetDatabase);

  it("creates one admin and one shopper whose demo passwords sign in", async () => {
    await seedDemoAccounts(getDb());
    const users = await getDb().models.User.findAll({ attributes: ["email", "role"], raw: true });
    expect(users.filter((u) => u.role === "admin")).toHaveLength(1);
    expect(users.filter((u) => u.role === "user")).toHaveLength(1);
    for (const account of DEMO_ACCOUNTS) {
      const user = await verifyLogin(account.email, account.password);
      expect(user).toMatchObject({ email: account.email, role: account.role });
    }
  });

  it("adds nothing and keeps passwords when run a second time", async () => {
    await seedDemoAccounts(getDb());
    const before = await getDb().models.User.findAll({
      attributes: ["id", "passwordHash"],
      raw: true,
      order: ["id"],
    });
    await seedDemoAccounts(getDb());
    const after = await getDb().models.User.findAll({
      attributes: ["id", "passwordHash"],
      raw: true,
      order: ["id"],
    });
    expect(after).toEqual(before);
  });

  it("isEmptyShop is true only while there are no users and no products", async () => {
    expect(await isEmptyShop(getDb())).toBe(true);
    await createTestUser();
    expect(await isEmptyShop(getDb())).toBe(false);
    await resetDatabase();
    await seedDemoCatalog(getDb());
    expect(await isEmptyShop(getDb())).toBe(false);
  });
});

describe("createOrPromoteAdmin", () => {
  beforeEach(resetDatabase);

  it("creates a new admin whose password works", async () => {
    const result = await createOrPromoteAdmin({
      userName: "Boss",
      email: "boss@example.com",
      password: "boss-password",
    });
    expect(result.action).toBe("created");
    expect(result.user).toMatchObject({ userName: "Boss", email: "boss@example.com", role: "admin" });
    expect(await verifyLogin("boss@example.com", "boss-password")).toMatchObject({ role: "admin" });
  });

  it("stores the email lower-case", async () => {
    await createOrPromoteAdmin({ userName: "Boss", email: "Boss@Example.com", password: "boss-password" });
    expect(await getDb().models.User.findOne({ where: { email: "boss@example.com" } })).not.toBeNull();
  });

  it("promotes an existing shopper and leaves the password unchanged", async () => {
    const shopper = await createTestUser({ email: "ann@example.com" });
    const result = await createOrPromoteAdmin({
      userName: "Ignored",
      email: "ANN@example.com",
      password: "a-new-password",
    });
    expect(result.action).toBe("promoted");
    expect(result.user).toMatchObject({ id: shopper.id, role: "admin", userName: shopper.userName });
    expect(await verifyLogin("ann@example.com", shopper.password)).toMatchObject({ role: "admin" });
    expect(await verifyLogin("ann@example.com", "a-new-password")).toBeNull();
    expect(await getDb().models.User.count()).toBe(1);
  });

  it("leaves an existing admin unchanged", async () => {
    const admin = await createTestUser({ email: "boss@example.com", role: "admin" });
    const result = await createOrPromoteAdmin({
      userName: "Other",
      email: "boss@example.com",
      password: "another-password",
    });
    expect(result.action).toBe("unchanged");
    expect(result.user.id).toBe(admin.id);
    expect(await verifyLogin("boss@example.com", admin.password)).not.toBeNull();
  });
});

describe("scripts/create-admin.ts", () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "shop-create-admin-"));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  beforeEach(resetDatabase);

  const createAdmin = (args: string[]) => runScript("create-admin.ts", args, { dataDir });

  it("creates an admin, then reports that it is already one", async () => {
    const args = ["--email", "Root@Example.com", "--password", "root-password", "--name", "Root"];
    const first = await createAdmin(args);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain("Created admin root@example.com");
    expect(await verifyLogin("root@example.com", "root-password")).toMatchObject({ role: "admin" });

    const second = await createAdmin(args);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain("already an admin");
    expect(await getDb().models.User.count()).toBe(1);
  });

  it("promotes an existing shopper", async () => {
    const shopper = await createTestUser({ email: "ann@example.com" });
    const result = await createAdmin([
      "--email",
      "ann@example.com",
      "--password",
      "whatever-pw",
      "--name",
      "Ann",
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Promoted");
    expect(await verifyLogin("ann@example.com", shopper.password)).toMatchObject({ role: "admin" });
  });

  it("prints a readable message and exits with 1 for bad arguments", async () => {
    const invalid = await createAdmin(["--email", "not-an-email", "--password", "short", "--name", "Root"]);
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toContain("email");
    expect(invalid.stderr).toContain("password");
    expect(invalid.stderr).toContain("Usage: npm run create-admin");
    expect(invalid.stderr).not.toMatch(/\n\s+at\s/);

    const unknownOption = await createAdmin(["--mail", "root@example.com"]);
    expect(unknownOption.code).toBe(1);
    expect(unknownOption.stderr).toContain("--mail");
    expect(unknownOption.stderr).toContain("Usage: npm run create-admin");
    expect(unknownOption.stderr).not.toMatch(/\n\s+at\s/);

    expect(await getDb().models.User.count()).toBe(0);
  });
});
