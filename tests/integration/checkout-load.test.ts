import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { getConfig, parseConfig, setConfig } from "../../app/lib/server/config.server";
import { closeDb, getDb } from "../../app/models/db.server";
import { setPaymentGateway } from "../../app/payments/index.server";
import { closeSimulatorPool } from "../../app/payments/simulator.server";
import { action as createApi } from "../../app/routes/api.shop.order.create";
import { loader as productApi } from "../../app/routes/api.shop.products.get.$id";
import { captureOrderPayment } from "../../app/services/checkout.server";
import { resetDatabase } from "../support/database";
import { jsonRequest, run } from "./admin-support";
import {
  approvedOrder,
  createProduct,
  createShopper,
  orderRow,
  putInCart,
  saveAddress,
  stockOf,
  type TestShopper,
} from "./checkout-support";

/**
 * The checkout under a burst: no transaction waits for a second
 * pooled connection, so many shoppers creating orders at once are all
 * answered; a pool that stays exhausted answers 503 with Retry-After within
 * the acquire timeout instead of hanging and failing with a 500. (This file
 * also runs with DATABASE_POOL_MAX=1: see vitest.pool-one.config.ts.)
 */

beforeEach(async () => {
  await resetDatabase();
  setPaymentGateway(undefined);
});

async function shopperReadyToBuy(
  name: string,
  productId: string,
): Promise<TestShopper & { addressId: string }> {
  const shopper = await createShopper(name);
  await putInCart(shopper.id, productId, 1);
  return { ...shopper, addressId: (await saveAddress(shopper.id))._id };
}

function createThroughApi(shopper: TestShopper & { addressId: string }) {
  return run(
    createApi,
    jsonRequest("/api/shop/order/create", {
      json: { addressInfo: { addressId: shopper.addressId } },
      cookie: shopper.cookie,
    }),
  );
}

describe("a burst of checkouts", () => {
  it("sixteen shoppers pressing Checkout at the same moment are all answered 201, none 500", async () => {
    const product = await createProduct({ totalStock: 100, price: "12.50" });
    const shoppers = [];
    for (let i = 0; i < 16; i += 1) shoppers.push(await shopperReadyToBuy(`Burst ${i}`, product.id));

    const responses = await Promise.all(shoppers.map(createThroughApi));
    expect(responses.map((response) => response.status)).toEqual(shoppers.map(() => 201));
    expect(await getDb().models.Order.count()).toBe(16);
  });

  it("one shopper sending thirty creates in parallel gets thirty orders, and the shop keeps answering others", async () => {
    const product = await createProduct({ totalStock: 100 });
    const shopper = await shopperReadyToBuy("Impatient", product.id);
    const burst = Promise.all(Array.from({ length: 30 }, () => createThroughApi(shopper)));
    const read = await run(productApi, jsonRequest(`/api/shop/products/get/${product.id}`), {
      id: product.id,
    });
    expect(read.status).toBe(200);
    const responses = await burst;
    expect(responses.map((response) => response.status)).toEqual(responses.map(() => 201));
    expect(await getDb().models.Order.count({ where: { userId: shopper.id } })).toBe(30);
  });

  it("thirty shoppers capturing one product at once are all paid, and the stock ends exactly at zero", async () => {
    const product = await createProduct({ totalStock: 30, price: "9.00" });
    const orders = [];
    for (let i = 0; i < 30; i += 1) {
      const shopper = await createShopper(`Buyer ${i}`);
      orders.push({ shopper, ...(await approvedOrder(shopper, product.id)) });
    }
    const outcomes = await Promise.all(
      orders.map((order) => captureOrderPayment(order.shopper, { paymentId: order.paymentId })),
    );
    expect(outcomes.every((outcome) => outcome.status === "paid" && !outcome.alreadyPaid)).toBe(true);
    expect(await stockOf(product.id)).toBe(0);
    for (const order of orders) expect((await orderRow(order.orderId)).paymentStatus).toBe("paid");
  });
});

describe("an exhausted pool", () => {
  const original = getConfig();
  afterEach(async () => {
    await closeSimulatorPool();
    await closeDb();
    setConfig(original);
  });

  it("answers 503 with Retry-After within the acquire timeout, not a 30 s hang and a 500", async () => {
    await closeSimulatorPool();
    await closeDb();
    setConfig({
      ...parseConfig({ ...process.env, DATABASE_POOL_MAX: "1", DATABASE_POOL_ACQUIRE_TIMEOUT_MS: "300" }),
      sessionSecrets: original.sessionSecrets,
    });
    const product = await createProduct();
    let release!: () => void;
    let held!: () => void;
    const acquired = new Promise<void>((resolve) => (held = resolve));
    // Somebody holds the only connection (a long transaction).
    const holder = getDb().sequelize.transaction(async (transaction) => {
      await getDb().sequelize.query("SELECT 1", { transaction });
      held();
      await new Promise<void>((resolve) => (release = resolve));
    });
    await acquired;

    const started = Date.now();
    const response = await run(productApi, jsonRequest(`/api/shop/products/get/${product.id}`), {
      id: product.id,
    });
    const waited = Date.now() - started;
    release();
    await holder;

    expect(response.status).toBe(503);
    expect(response.headers.get("Retry-After")).toBe("5");
    expect(await response.json()).toEqual({
      success: false,
      message: "The shop is very busy right now. Please try again in a moment.",
    });
    expect(waited).toBeLessThan(5_000);

    // Once the connection is back, the same call is answered.
    const again = await run(productApi, jsonRequest(`/api/shop/products/get/${product.id}`), {
      id: product.id,
    });
    expect(again.status).toBe(200);
  });
});
