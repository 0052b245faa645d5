import { readFile } from "node:fs/promises";
import path from "node:path";
import { QueryTypes, type Transaction } from "sequelize";
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
    await insertProductsWithVariants(db, missing);
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
  await seedDemoShippingMethods(db, log);
  await seedDemoTaxRates(db, log);
}

/**
 * The demo's example tax rates (docs/decisions/0030-tax-per-line-and-rate.md),
 * marked as examples on the admin page: New York State's 4 % with its
 * clothing and footwear exemption under $110 an item, and California's
 * 7.25 % base rate. A newcomer who ships to a New York or California ZIP code
 * sees tax at checkout; an owner replaces them with their own.
 */
const DEMO_TAX_RATES = [
  {
    name: "New York State (clothing, footwear)",
    region: "NY",
    rate: 40_000,
    appliesTo: ["men", "women", "kids", "footwear"],
    exemptBelow: 11_000,
  },
  {
    name: "New York State",
    region: "NY",
    rate: 40_000,
    appliesTo: ["accessories", "shipping"],
    exemptBelow: null,
  },
  {
    name: "California",
    region: "CA",
    rate: 72_500,
    appliesTo: ["men", "women", "kids", "footwear", "accessories"],
    exemptBelow: null,
  },
] as const;

async function seedDemoTaxRates(db: Database, log: (message: string) => void = () => {}) {
  const [existing] = (await db.sequelize.query(`SELECT 1 FROM tax_rates LIMIT 1`)) as [unknown[], unknown];
  if (existing.length) return;
  for (const rate of DEMO_TAX_RATES) {
    await db.sequelize.query(
      `INSERT INTO tax_rates (name, country, region, rate_millionths, applies_to, exempt_below_cents, example)
       VALUES (:name, 'US', :region, :rate, ARRAY[:appliesTo]::text[], :exemptBelow, true)`,
      { replacements: { ...rate, appliesTo: [...rate.appliesTo] } },
    );
  }
  log(`Added ${DEMO_TAX_RATES.length} example tax rates`);
}

/** The demo's delivery options (docs/decisions/0020-delivery-and-discounts.md). */
const DEMO_SHIPPING_METHODS = [
  { name: "Standard", price: "4.95", min: 3, max: 5, freeOver: "50.00", position: 0 },
  { name: "Express", price: "12.95", min: 1, max: 2, freeOver: null, position: 1 },
] as const;

async function seedDemoShippingMethods(db: Database, log: (message: string) => void = () => {}) {
  let added = 0;
  for (const method of DEMO_SHIPPING_METHODS) {
    const [rows] = (await db.sequelize.query(
      `INSERT INTO shipping_methods (name, price, estimated_days_min, estimated_days_max, free_over, position)
       VALUES (:name, :price, :min, :max, :freeOver, :position)
       ON CONFLICT ((lower(name))) DO NOTHING RETURNING id`,
      { replacements: { ...method } },
    )) as [unknown[], unknown];
    added += rows.length;
  }
  if (added) log(`Added ${added} delivery options`);
}

/**
 * The products and their variants in one transaction, two statements: the
 * variants are there when it commits, so the database's default variant (for
 * a product written without any) is not added, and the triggers derive each
 * product's stock, lowest price and sizes in stock from them.
 */
async function insertProductsWithVariants(db: Database, products: readonly Omit<DemoProduct, "slug">[]) {
  const { Product, ProductVariant } = db.models;
  await db.sequelize.transaction(async (transaction) => {
    const created = await Product.bulkCreate(
      products.map(({ variants: _variants, ...product }) => product),
      { fields: PRODUCT_FIELDS, returning: ["id"], transaction },
    );
    await ProductVariant.bulkCreate(
      products.flatMap((product, at) =>
        product.variants.map((variant) => ({
          ...variant,
          productId: created[at]!.id,
          price: null,
          salePrice: null,
        })),
      ),
      { fields: ["productId", "sku", "size", "colour", "position", "totalStock"], transaction },
    );
    // One drawing per product: the demo has no photos of its colours, so each gallery is that drawing.
    await insertDrawingPictures(
      db,
      products.map((product, at) => ({ productId: created[at]!.id, url: product.image, alt: product.title })),
      transaction,
    );
  });
}

/** The drawings' declared sizes, each file read once (public/ is part of the release). */
const drawingSizes = new Map<string, Promise<{ width: number; height: number } | null>>();

function drawingSize(url: string): Promise<{ width: number; height: number } | null> {
  let size = drawingSizes.get(url);
  if (!size) {
    size = readFile(path.join(process.cwd(), "public", url), "utf8").then(
      (text) => {
        const tag = /<svg\b[^>]*>/i.exec(text)?.[0];
        const width = tag && /\swidth="(\d+)(?:px)?"/.exec(tag)?.[1];
        const height = tag && /\sheight="(\d+)(?:px)?"/.exec(tag)?.[1];
        return width && height ? { width: Number(width), height: Number(height) } : null;
      },
      () => null,
    );
    drawingSizes.set(url, size);
  }
  return size;
}

/**
 * Each product's gallery as its one drawing (`/images/...`), with the drawing's
 * declared size and the product's title as its alt text (the drawing shows the
 * product, nothing more). Used by the demo catalogue and the end-to-end seeds.
 */
export async function insertDrawingPictures(
  db: Database,
  pictures: readonly { productId: string; url: string; alt: string }[],
  transaction: Transaction,
): Promise<void> {
  if (pictures.length === 0) return;
  const sizes = await Promise.all(pictures.map((picture) => drawingSize(picture.url)));
  await db.sequelize.query(
    `INSERT INTO product_images (product_id, position, url, alt, width, height)
     SELECT t.product_id, 0, t.url, t.alt, t.width, t.height
       FROM unnest($1::uuid[], $2::text[], $3::text[], $4::int[], $5::int[]) AS t(product_id, url, alt, width, height)`,
    {
      bind: [
        pictures.map((picture) => picture.productId),
        pictures.map((picture) => picture.url),
        pictures.map((picture) => picture.alt.slice(0, 200)),
        sizes.map((size) => size?.width ?? null),
        sizes.map((size) => size?.height ?? null),
      ],
      transaction,
    },
  );
}

/**
 * Adds `count` generated products with their variants in batches (for
 * benchmarks). Their SKUs continue after the highest generated one already
 * in the database, so a second call adds more instead of colliding.
 */
export async function seedLargeCatalog(
  db: Database,
  count: number,
  log: (message: string) => void = () => {},
) {
  const [row] = await db.sequelize.query<{ last: number | null }>(
    `SELECT max(substring(sku FROM '^GEN-([0-9]+)')::int) AS last FROM product_variants WHERE sku LIKE 'GEN-%'`,
    { type: QueryTypes.SELECT },
  );
  const batchSize = 1000;
  let batch: Omit<DemoProduct, "slug">[] = [];
  let added = 0;
  for (const product of generatedProducts(count, undefined, (row?.last ?? 0) + 1)) {
    batch.push(product);
    if (batch.length === batchSize) {
      await insertProductsWithVariants(db, batch);
      added += batch.length;
      batch = [];
      log(`  ${added}/${count} products`);
    }
  }
  if (batch.length) {
    await insertProductsWithVariants(db, batch);
    added += batch.length;
  }
  // Statistics for the planner, and the new rows marked visible to all, so that the listing's index-only scans
  // need not read the table: what autovacuum would do some time later, done before the first page is asked for.
  await db.sequelize.query("VACUUM ANALYZE products");
  log(`Added ${added} generated products`);
}

/** True when the database holds no users and no products: a first start. */
export async function isEmptyShop(db: Database): Promise<boolean> {
  const [users, products] = await Promise.all([db.models.User.count(), db.models.Product.count()]);
  return users === 0 && products === 0;
}
