import type { LoaderFunctionArgs } from "react-router";
import { getDb, setQueryListener } from "../../app/models/db.server";
import type { Brand, Category } from "../../app/lib/shared/catalog-options";
import { generatedProducts } from "../../db/seed/catalog";
import { runInRequestScope } from "../../app/lib/server/request-scope.server";
import { buildRequest, responseOfResult, testRequestContext } from "./requests";
import { compareVariants } from "../../app/lib/shared/variants";

/**
 * Catalogue fixtures for the storefront tests: products, paid orders (there
 * is no checkout yet, so orders are written through the models) and a SQL
 * statement counter.
 */

export interface ProductFixture {
  title?: string;
  description?: string;
  category?: Category;
  brand?: Brand;
  price?: string;
  salePrice?: string | null;
  totalStock?: number;
  image?: string;
}

let counter = 0;

export async function createProduct(overrides: ProductFixture = {}) {
  counter += 1;
  const row = await getDb().models.Product.create({
    title: overrides.title ?? `Test Product ${counter}`,
    description: overrides.description ?? "A plain product for tests.",
    category: overrides.category ?? "men",
    brand: overrides.brand ?? "nike",
    price: overrides.price ?? "20.00",
    salePrice: overrides.salePrice ?? null,
    totalStock: overrides.totalStock ?? 50,
    image: overrides.image ?? "/images/products/test.svg",
  });
  return row.get({ plain: true });
}

interface VariantFixture {
  size?: string | null;
  colour?: string | null;
  totalStock: number;
  /** Its own price (and sale price); without one it sells at the product's. */
  price?: string | null;
  salePrice?: string | null;
  sku?: string;
}

/**
 * A product sold in the given sizes and colours, written as the admin's save
 * writes it: the product and its variants in one transaction (so it never has
 * the default variant), positions in display order. Returns the product as
 * the database then holds it (stock the variants' sum) and its variants by
 * "size/colour" ("M", "M/black", "/red").
 */
export async function createProductWithVariants(overrides: ProductFixture, variants: VariantFixture[]) {
  const number = (counter += 1);
  const { sequelize, models } = getDb();
  const id = await sequelize.transaction(async (transaction) => {
    const product = await models.Product.create(
      {
        title: overrides.title ?? `Test Product ${number}`,
        description: overrides.description ?? "A plain product for tests.",
        category: overrides.category ?? "men",
        brand: overrides.brand ?? "nike",
        price: overrides.price ?? "20.00",
        salePrice: overrides.salePrice ?? null,
        totalStock: 0,
        image: overrides.image ?? "/images/products/test.svg",
      },
      { transaction },
    );
    const ordered = [...variants].sort((a, b) =>
      compareVariants(
        { size: a.size ?? null, colour: a.colour ?? null },
        { size: b.size ?? null, colour: b.colour ?? null },
      ),
    );
    await models.ProductVariant.bulkCreate(
      ordered.map((variant, position) => ({
        productId: product.id,
        sku:
          variant.sku ?? `T${number}-${variant.size ?? "NA"}-${variant.colour ?? "NA"}`.replace(/\s+/g, ""),
        size: variant.size ?? null,
        colour: variant.colour ?? null,
        position,
        totalStock: variant.totalStock,
        price: variant.price ?? null,
        salePrice: variant.salePrice ?? null,
      })),
      { transaction },
    );
    return product.id;
  });
  const product = (await models.Product.findByPk(id, { raw: true }))!;
  const rows = await models.ProductVariant.findAll({
    where: { productId: id },
    order: [["position", "ASC"]],
    raw: true,
  });
  const byOptions = Object.fromEntries(
    rows.map((row) => [row.colour ? `${row.size ?? ""}/${row.colour}` : (row.size ?? ""), row]),
  );
  return { product, variants: rows, byOptions };
}

/** Adds `count` generated products (the benchmark's generator) in one statement. */
export async function createGeneratedProducts(count: number, seed = 7) {
  await getDb().models.Product.bulkCreate([...generatedProducts(count, seed)], {
    fields: ["image", "title", "description", "category", "brand", "price", "salePrice", "totalStock"],
  });
}

/** An order of `userId` containing `productIds` with the given payment status. */
export async function createOrder(
  userId: string,
  productIds: string[],
  paymentStatus: "paid" | "pending" | "failed" | "refunded" = "paid",
) {
  const { Order, OrderItem } = getDb().models;
  const order = await Order.create({
    userId,
    cartId: null,
    addressInfo: {
      addressId: null,
      address: "1 Test Street",
      city: "Testville",
      pincode: "12345",
      phone: "555-0100",
      notes: "none",
    },
    orderStatus: paymentStatus === "paid" ? "confirmed" : "pending",
    paymentStatus,
    totalAmount: "10.00",
    paymentId: null,
    payerId: null,
  });
  await OrderItem.bulkCreate(
    productIds.map((productId) => ({
      orderId: order.id,
      productId,
      title: "Ordered product",
      image: "/images/products/test.svg",
      price: "10.00",
      quantity: 1,
    })),
  );
  return order.get({ plain: true });
}

/** The SQL statements that `task` runs. */
export async function recordQueries<T>(task: () => Promise<T>): Promise<{ result: T; queries: string[] }> {
  const queries: string[] = [];
  setQueryListener((sql) => queries.push(sql));
  try {
    const result = await task();
    return { result, queries };
  } finally {
    setQueryListener(undefined);
  }
}

type Loader = (args: LoaderFunctionArgs) => unknown;

/**
 * Runs the loaders of a document request the way the server does (root, the
 * shop layout, the page, each with its own Request, in one request scope) and
 * returns the page loader's Response and every SQL statement of the request.
 */
export async function loadPage(loaders: Loader[], path: string, cookie: string, params = {}) {
  return recordQueries(async () => {
    const responses = await runInRequestScope(() =>
      Promise.all(
        loaders.map(async (loader) => {
          try {
            return responseOfResult(
              await loader({
                request: buildRequest(path, { cookie }),
                params,
                url: new URL(path, "http://localhost"),
                pattern: "",
                context: testRequestContext(),
              }),
            );
          } catch (thrown) {
            if (thrown instanceof Response) return thrown;
            throw thrown;
          }
        }),
      ),
    );
    return responses[responses.length - 1]!;
  });
}
