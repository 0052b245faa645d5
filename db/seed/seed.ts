import type { Database } from "../../app/models/db.server";
import { hashPassword } from "../../app/lib/server/password.server";
import { EDITABLE_PRODUCT_FIELDS } from "../../app/lib/shared/product";
import { DEMO_FEATURES, DEMO_PRODUCTS, generatedProducts, type DemoProduct } from "./catalog";

/**
 * Demo data: the catalogue, the home-page banners and two demo accounts.
 * Idempotent: running it again adds only what is missing.
 */

// The fields an admin enters; the id, averageReview and the timestamps come from the database's defaults.
const PRODUCT_FIELDS = EDITABLE_PRODUCT_FIELDS.map((field) => field.name);

export const DEMO_ACCOUNTS = [
  { role: "admin", userName: "Demo Admin", email: "admin@example.com", password: "admin12345" },
  { role: "user", userName: "Demo Shopper", email: "shopper@example.com", password: "shopper12345" },
] as const;

export async function seedDemoAccounts(db: Database, log: (message: string) => void = () => {}) {
  const { User } = db.models;
  for (const account of DEMO_ACCOUNTS) {
    const existing = await User.findOne({ where: { email: account.email }, attributes: ["id"], raw: true });
    if (existing) continue;
    await User.create({
      userName: account.userName,
      email: account.email,
      passwordHash: await hashPassword(account.password),
      role: account.role,
    });
    log(`Created demo ${account.role === "admin" ? "admin" : "shopper"} ${account.email}`);
  }
}

export async function seedDemoCatalog(db: Database, log: (message: string) => void = () => {}) {
  const { Product, FeatureImage } = db.models;
  const existingTitles = new Set(
    (await Product.findAll({ attributes: ["title"], raw: true })).map((row) => row.title),
  );
  const missing = DEMO_PRODUCTS.filter((product) => !existingTitles.has(product.title));
  if (missing.length) {
    await Product.bulkCreate(
      missing.map(({ slug: _slug, ...product }) => product),
      { fields: PRODUCT_FIELDS },
    );
    log(`Added ${missing.length} demo products`);
  }
  const existingImages = new Set(
    (await FeatureImage.findAll({ attributes: ["image"], raw: true })).map((r) => r.image),
  );
  const features = DEMO_FEATURES.filter((feature) => !existingImages.has(feature.image));
  if (features.length) {
    // One at a time: each gets its own createdAt, so the banner shows them in the catalogue's order.
    for (const { image, title, subtitle, link } of features) {
      await FeatureImage.create({ image, title, subtitle, link });
    }
    log(`Added ${features.length} feature images`);
  }
}

/** Adds `count` generated products in batches (for benchmarks). */
export async function seedLargeCatalog(
  db: Database,
  count: number,
  log: (message: string) => void = () => {},
) {
  const { Product } = db.models;
  const batchSize = 1000;
  let batch: Omit<DemoProduct, "slug">[] = [];
  let added = 0;
  for (const product of generatedProducts(count)) {
    batch.push(product);
    if (batch.length === batchSize) {
      await Product.bulkCreate(batch, { fields: PRODUCT_FIELDS });
      added += batch.length;
      batch = [];
      log(`  ${added}/${count} products`);
    }
  }
  if (batch.length) {
    await Product.bulkCreate(batch, { fields: PRODUCT_FIELDS });
    added += batch.length;
  }
  log(`Added ${added} generated products`);
}

/** True when the database holds no users and no products: a first start. */
export async function isEmptyShop(db: Database): Promise<boolean> {
  const [users, products] = await Promise.all([db.models.User.count(), db.models.Product.count()]);
  return users === 0 && products === 0;
}
