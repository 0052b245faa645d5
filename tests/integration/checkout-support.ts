import { getDb } from "../../app/models/db.server";
import { answerSimulatedPayment } from "../../app/payments/simulator.server";
import { addAddress, type AddressJson } from "../../app/services/addresses.server";
import { createOrderFromCart, type CreatedOrder } from "../../app/services/checkout.server";
import { createTestUser } from "../support/database";
import { sessionCookieFor } from "../support/requests";
import { createProductRow } from "./admin-support";
import { createProductWithVariants as createSizedProduct, type ProductFixture } from "../support/storefront";

/**
 * Fixtures for the checkout, payment and order-history tests: shoppers with
 * a session, products, cart lines written straight into the cart tables (so
 * these tests do not depend on the cart service's shape), and a purchase up to
 * the simulator's approval.
 */

export interface TestShopper {
  id: string;
  userName: string;
  cookie: string;
}

export const HOME = {
  address: "12 Baker Street",
  city: "London",
  pincode: "NW1 6XE",
  phone: "+44 20 7946 0000",
  notes: "Blue door",
};

export async function createShopper(userName = "Sam Shopper"): Promise<TestShopper> {
  const user = await createTestUser({ userName });
  return { id: user.id, userName: user.userName, cookie: await sessionCookieFor(user.id) };
}

export async function createAdmin(): Promise<TestShopper> {
  const user = await createTestUser({ role: "admin", userName: "Ada Admin" });
  return { id: user.id, userName: user.userName, cookie: await sessionCookieFor(user.id) };
}

export const createProduct = createProductRow;

interface TestVariant {
  id: string;
  sku: string;
  size: string | null;
  colour: string | null;
}

/**
 * A product sold in the given sizes and colours, each with its own stock
 * (`price` optional: the product's when absent), written as the admin's save
 * writes it (tests/support/storefront.ts). The variants come back in the
 * given order, by size ("M") as well.
 */
export async function createProductWithVariants(
  variants: { size: string | null; colour?: string | null; totalStock: number; price?: string }[],
  overrides: ProductFixture = {},
) {
  const created = await createSizedProduct(overrides, variants);
  const list: TestVariant[] = variants.map((wanted) => {
    const row = created.variants.find(
      (variant) => variant.size === wanted.size && variant.colour === (wanted.colour ?? null),
    )!;
    return { id: row.id, sku: row.sku, size: row.size, colour: row.colour };
  });
  const bySize = Object.fromEntries(list.map((variant) => [variant.size ?? "", variant]));
  return { product: created.product, variants: list, bySize };
}

/** Each variant's stock by size ("S": 3), and the product's stock and in-stock sizes as its row keeps them. */
export async function variantStock(productId: string) {
  const { sequelize } = getDb();
  const [variants] = (await sequelize.query(
    `SELECT size, total_stock AS stock FROM product_variants WHERE product_id = :productId ORDER BY position, id`,
    { replacements: { productId } },
  )) as [{ size: string | null; stock: number }[], unknown];
  const [products] = (await sequelize.query(
    `SELECT total_stock AS stock, sizes_in_stock AS sizes FROM products WHERE id = :productId`,
    { replacements: { productId } },
  )) as [{ stock: number; sizes: string[] }[], unknown];
  return {
    bySize: Object.fromEntries(variants.map((variant) => [variant.size ?? "", variant.stock])),
    sum: variants.reduce((total, variant) => total + variant.stock, 0),
    product: products[0]!.stock,
    sizesInStock: [...products[0]!.sizes].sort(),
  };
}

/**
 * Puts `quantity` of a product in the shopper's cart (creating the cart), like "Add to cart": of
 * `variantId`, or of the product's first variant.
 */
export async function putInCart(
  userId: string,
  productId: string,
  quantity: number,
  variantId?: string,
): Promise<string> {
  const { sequelize } = getDb();
  const [rows] = (await sequelize.query(
    `INSERT INTO carts (user_id) VALUES (:userId)
     ON CONFLICT (user_id) DO UPDATE SET updated_at = now() RETURNING id`,
    { replacements: { userId } },
  )) as [{ id: string }[], unknown];
  const cartId = rows[0]!.id;
  await sequelize.query(
    `INSERT INTO cart_items (cart_id, product_id, variant_id, quantity)
     SELECT :cartId, :productId, v.id, :quantity FROM product_variants v
      WHERE v.product_id = :productId AND (v.id = :variantId OR :variantId IS NULL)
      ORDER BY v.position, v.id LIMIT 1
     ON CONFLICT (cart_id, variant_id) DO UPDATE SET quantity = EXCLUDED.quantity`,
    { replacements: { cartId, productId, quantity, variantId: variantId ?? null } },
  );
  return cartId;
}

/** The shopper's cart lines as { productId: quantity }. */
export async function cartOf(userId: string): Promise<Record<string, number>> {
  const [rows] = (await getDb().sequelize.query(
    `SELECT ci.product_id AS "productId", ci.quantity FROM cart_items ci
       JOIN carts c ON c.id = ci.cart_id WHERE c.user_id = :userId`,
    { replacements: { userId } },
  )) as [{ productId: string; quantity: number }[], unknown];
  return Object.fromEntries(rows.map((row) => [row.productId, row.quantity]));
}

export async function stockOf(productId: string): Promise<number> {
  const product = await getDb().models.Product.findByPk(productId, { attributes: ["totalStock"], raw: true });
  return product!.totalStock;
}

export async function orderRow(orderId: string) {
  const order = await getDb().models.Order.findByPk(orderId, { raw: true });
  if (!order) throw new Error(`No order ${orderId}`);
  return order;
}

export async function saveAddress(userId: string, values = HOME): Promise<AddressJson> {
  return addAddress(userId, values);
}

/** The simulator's records of one provider order: its status, capture and refunds. */
export async function simulatorRecord(providerOrderId: string) {
  const [rows] = (await getDb().sequelize.query(
    `SELECT o.status, o.capture_id AS "captureId", o.amount_cents AS "amountCents",
            (SELECT count(*)::int FROM payment_simulator_refunds r WHERE r.capture_id = o.capture_id) AS refunds,
            (SELECT COALESCE(sum(r.amount_cents), 0)::int FROM payment_simulator_refunds r
              WHERE r.capture_id = o.capture_id) AS "refundedCents"
       FROM payment_simulator_orders o WHERE o.id = :id`,
    { replacements: { id: providerOrderId } },
  )) as [
    {
      status: string;
      captureId: string | null;
      amountCents: number;
      refunds: number;
      refundedCents: number;
    }[],
    unknown,
  ];
  return rows[0] ?? null;
}

/** What the payer answered at the simulator's approval page; returns the return URL's query. */
export async function payerAnswers(
  providerOrderId: string,
  answer: "approve" | "decline" | "cancel",
): Promise<{ token: string; PayerID: string }> {
  const target = await answerSimulatedPayment(providerOrderId, answer);
  const url = new URL(target!);
  return { token: url.searchParams.get("token")!, PayerID: url.searchParams.get("PayerID") ?? "" };
}

/** A shopper with `quantity` of `productId` in the cart and an address, checked out and approved. */
export async function approvedOrder(
  shopper: { id: string },
  productId: string,
  quantity = 1,
): Promise<CreatedOrder & { paymentId: string; payerId: string }> {
  await putInCart(shopper.id, productId, quantity);
  const address = await saveAddress(shopper.id);
  const created = await createOrderFromCart(shopper, { addressId: address._id });
  const answer = await payerAnswers(created.order.paymentId!, "approve");
  return { ...created, paymentId: answer.token, payerId: answer.PayerID };
}
