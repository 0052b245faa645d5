import path from "node:path";
import { createDatabase, type Database } from "../../../app/models/db.server";
import { startEmbeddedPostgres } from "../../../app/models/embedded-postgres.server";
import { insertDrawingPictures } from "../../../db/seed/seed";

/**
 * Test-only data for the storefront's end-to-end tests, written straight into
 * the end-to-end database (the one tests/e2e/support/serve.ts started), so
 * that production code needs no backdoor. The tests call these in their own
 * process, each call on a connection of its own that it closes.
 *
 * A "paid order" gives a shopper the purchase a review needs without going
 * through the checkout's pages.
 */

async function e2eDatabaseUrl(): Promise<string> {
  if (process.env.DATABASE_URL) {
    const url = new URL(process.env.DATABASE_URL);
    url.pathname = "/shop_e2e";
    return url.toString();
  }
  // The embedded cluster is already running: this finds it through its postmaster.pid.
  const dataDir = path.resolve(process.env.E2E_DATA_DIR ?? ".data-e2e");
  return (await startEmbeddedPostgres({ dataDir })).url;
}

async function paidOrder(db: Database, email: string, productId: string) {
  const { User, Product, Order, OrderItem } = db.models;
  const user = await User.findOne({ where: { email: email.toLowerCase() }, attributes: ["id"], raw: true });
  if (!user) throw new Error(`No user ${email}`);
  const product = await Product.findByPk(productId, {
    attributes: ["id", "title", "image", "price"],
    raw: true,
  });
  if (!product) throw new Error(`No product ${productId}`);
  const order = await Order.create({
    userId: user.id,
    cartId: null,
    addressInfo: {
      addressId: null,
      address: "1 Test Street",
      city: "Testville",
      pincode: "12345",
      phone: "555-0100",
      notes: "end-to-end test order",
    },
    orderStatus: "confirmed",
    paymentStatus: "paid",
    totalAmount: product.price,
    paymentId: null,
    payerId: null,
  });
  await OrderItem.create({
    orderId: order.id,
    productId: product.id,
    title: product.title,
    image: product.image,
    price: product.price,
    quantity: 1,
  });
  return { orderId: order.id };
}

const DRAWING = "/images/products/classic-canvas-tote-bag.svg";

async function product(db: Database, title: string, totalStock: number) {
  return db.sequelize.transaction(async (transaction) => {
    const row = await db.models.Product.create(
      {
        title,
        description: "A product made for one end-to-end test.",
        category: "accessories",
        brand: "puma",
        price: "12.00",
        salePrice: null,
        totalStock,
        image: DRAWING,
      },
      { transaction },
    );
    await insertDrawingPictures(db, [{ productId: row.id, url: DRAWING, alt: title }], transaction);
    return { productId: row.id };
  });
}

/**
 * A T-shirt sold in S (sold out), M and L (five of each), written in one
 * transaction so that it gets no default variant. SKUs are unique per call.
 * Filed under accessories, like every product made for a test: the specs
 * share one database and run side by side, and they count the demo
 * catalogue's men, women, kids and footwear, which must not change with the
 * order the specs happen to run in.
 */
async function sizedProduct(db: Database, title: string) {
  const { Product, ProductVariant } = db.models;
  const suffix = Date.now().toString(36).toUpperCase();
  return db.sequelize.transaction(async (transaction) => {
    const product = await Product.create(
      {
        title,
        description: "A T-shirt in sizes, made for one end-to-end test.",
        category: "accessories",
        brand: "puma",
        price: "18.00",
        salePrice: null,
        totalStock: 0,
        image: DRAWING,
      },
      { transaction },
    );
    await insertDrawingPictures(db, [{ productId: product.id, url: DRAWING, alt: title }], transaction);
    const sizes = [
      ["S", 0],
      ["M", 5],
      ["L", 5],
    ] as const;
    for (const [position, [size, totalStock]] of sizes.entries()) {
      await ProductVariant.create(
        {
          productId: product.id,
          sku: `E2E-${suffix}-${size}`,
          size,
          colour: null,
          position,
          totalStock,
        } as never,
        { transaction },
      );
    }
    return { productId: product.id };
  });
}

/**
 * A T-shirt in S, M and L, each in black and white: M in black has three
 * left, M in white is sold out, L in white costs more (22.00 instead of
 * 18.00); the others have five. Written in one transaction, SKUs unique per call.
 * Filed under accessories for the reason sizedProduct gives.
 */
async function sizedColouredProduct(db: Database, title: string) {
  const { Product, ProductVariant } = db.models;
  const suffix = Date.now().toString(36).toUpperCase();
  return db.sequelize.transaction(async (transaction) => {
    const product = await Product.create(
      {
        title,
        description: "A T-shirt in sizes and colours, made for one end-to-end test.",
        category: "accessories",
        brand: "puma",
        price: "18.00",
        salePrice: null,
        totalStock: 0,
        image: DRAWING,
      },
      { transaction },
    );
    await insertDrawingPictures(db, [{ productId: product.id, url: DRAWING, alt: title }], transaction);
    const variants = [
      ["S", "black", 5, null],
      ["S", "white", 5, null],
      ["M", "black", 3, null],
      ["M", "white", 0, null],
      ["L", "black", 5, null],
      ["L", "white", 5, "22.00"],
    ] as const;
    for (const [position, [size, colour, totalStock, price]] of variants.entries()) {
      await ProductVariant.create(
        {
          productId: product.id,
          sku: `E2E-${suffix}-${size}-${colour.toUpperCase()}`,
          size,
          colour,
          position,
          totalStock,
          price,
        } as never,
        { transaction },
      );
    }
    return { productId: product.id };
  });
}

/** Runs `task` on the end-to-end database through a connection of its own, closed afterwards. */
async function withE2eDatabase<T>(task: (db: Database) => Promise<T>): Promise<T> {
  const db = createDatabase(await e2eDatabaseUrl(), { poolMax: 1 });
  try {
    return await task(db);
  } finally {
    await db.sequelize.close();
  }
}

/** A paid order of `productId` for the shopper with `email` (there is no checkout yet). */
export function seedPaidOrder(email: string, productId: string): Promise<{ orderId: string }> {
  return withE2eDatabase((db) => paidOrder(db, email, productId));
}

/** A fresh product with the given stock; returns its id. */
export async function seedProduct(title: string, totalStock: number): Promise<string> {
  return (await withE2eDatabase((db) => product(db, title, totalStock))).productId;
}

/** A fresh T-shirt in S (sold out), M and L; returns its id. */
export async function seedSizedProduct(title: string): Promise<string> {
  return (await withE2eDatabase((db) => sizedProduct(db, title))).productId;
}

/** A fresh T-shirt in S, M, L × black, white (M black: three left; M white sold out; L white 22.00); returns its id. */
export async function seedSizedColouredProduct(title: string): Promise<string> {
  return (await withE2eDatabase((db) => sizedColouredProduct(db, title))).productId;
}
