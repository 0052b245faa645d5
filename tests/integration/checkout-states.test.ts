import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { getConfig, setConfig, type AppConfig } from "../../app/lib/server/config.server";
import { closeDb, getDb } from "../../app/models/db.server";
import { setPaymentGateway } from "../../app/payments/index.server";
import { closeSimulatorPool } from "../../app/payments/simulator.server";
import { captureOrderPayment } from "../../app/services/checkout.server";
import { resetDatabase } from "../support/database";
import {
  approvedOrder,
  createProduct,
  createShopper,
  orderRow,
  simulatorRecord,
  stockOf,
} from "./checkout-support";

/**
 * The capture as states (docs/architecture.md, rule 9, docs/decisions/0004): while the
 * provider takes its time, the order is `capturing` with its stock reserved,
 * and the shop holds no database connection and no row lock.
 */

const original = getConfig();

async function useConfig(change: Partial<AppConfig>) {
  await closeSimulatorPool();
  await closeDb();
  setConfig({ ...original, ...change });
}

beforeEach(async () => {
  await resetDatabase();
  setPaymentGateway(undefined);
});

afterEach(async () => {
  await closeSimulatorPool();
  await closeDb();
  setConfig(original);
});

/** Polls the order until it is capturing; fails when it settles first. */
async function untilCapturing(orderId: string) {
  for (;;) {
    const { paymentStatus } = await orderRow(orderId);
    if (paymentStatus === "capturing") return;
    if (paymentStatus !== "pending")
      throw new Error(`The order was ${paymentStatus} before it was capturing`);
    await sleep(20);
  }
}

describe("the provider's capture runs outside any transaction", () => {
  it("holds no connection (pool of one) and no row lock while the provider answers, with the stock reserved meanwhile", async () => {
    await useConfig({
      databasePool: { max: 1, acquireTimeoutMs: 3_000, preparedStatements: true },
      simulatorLatencyMs: 600,
    });
    const shopper = await createShopper();
    const product = await createProduct({ totalStock: 5 });
    const order = await approvedOrder(shopper, product.id, 2);

    const events: string[] = [];
    const capture = captureOrderPayment(shopper, { paymentId: order.paymentId }).then((outcome) => {
      events.push("capture answered");
      return outcome;
    });
    await untilCapturing(order.orderId);
    expect(await stockOf(product.id)).toBe(3);
    // The pool's only connection is free, and the order's and product's rows can be locked at once.
    await getDb().sequelize.transaction(async (transaction) => {
      for (const sql of [
        "SELECT id FROM products WHERE id = :id FOR UPDATE NOWAIT",
        "SELECT id FROM orders WHERE id = :orderId FOR UPDATE NOWAIT",
      ]) {
        await getDb().sequelize.query(sql, {
          replacements: { id: product.id, orderId: order.orderId },
          transaction,
        });
      }
    });
    events.push("rows locked by another transaction");

    expect((await capture).order).toMatchObject({ paymentStatus: "paid", orderStatus: "confirmed" });
    expect(events).toEqual(["rows locked by another transaction", "capture answered"]);
    expect(await stockOf(product.id)).toBe(3);
  });

  it("answers a second capture sent while the first is in flight with the same paid order: charged and reserved once", async () => {
    await useConfig({ simulatorLatencyMs: 400 });
    const shopper = await createShopper();
    const product = await createProduct({ totalStock: 4, price: "10.00" });
    const order = await approvedOrder(shopper, product.id, 3);

    const started = Date.now();
    const first = captureOrderPayment(shopper, { paymentId: order.paymentId });
    await untilCapturing(order.orderId);
    const second = await captureOrderPayment(shopper, { orderId: order.orderId, paymentId: order.paymentId });
    const firstOutcome = await first;

    // The simulator really waited (PAYMENT_SIMULATOR_LATENCY_MS), and the second request waited for its outcome.
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
    expect(firstOutcome).toMatchObject({ status: "paid", alreadyPaid: false });
    expect(second).toMatchObject({ status: "paid", alreadyPaid: true, order: { paymentStatus: "paid" } });
    expect(await stockOf(product.id)).toBe(1);
    expect(await simulatorRecord(order.paymentId)).toMatchObject({ status: "COMPLETED", refunds: 0 });
  });
});
