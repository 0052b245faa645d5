import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import type { Sequelize } from "sequelize";
import { getConfig } from "~/lib/server/config.server";
import { getDb } from "~/models/db.server";
import { getLogger } from "~/lib/server/logger.server";
import { processSingleton } from "~/lib/server/process-singleton.server";
import {
  InstrumentDeclinedError,
  PaymentNotApprovedError,
  PaymentOrderNotFoundError,
  PaymentProviderError,
} from "./errors.server";
import {
  assertCaptureAmount,
  assertValidPaymentInput,
  breakdownOf,
  type CaptureInput,
  type CaptureResult,
  type CaptureStatus,
  type CreatedPayment,
  type CreatePaymentInput,
  type PaymentGateway,
  type PaymentLineItem,
  type ProviderOrder,
  type ProviderOrderStatus,
  type RefundResult,
} from "./gateway.server";

/**
 * The payment simulator: the gateway used when no PayPal credentials are set.
 * It behaves like PayPal's Orders v2 from the shop's side (an approval page,
 * the same return and cancel parameters, idempotent create and capture,
 * declines and refunds) and moves no money.
 *
 * Its records live in PostgreSQL (migration 0004) so that a payment survives
 * a restart. It talks to them through a small pool of its own, like a remote
 * provider would: the orders service may capture inside its own transaction,
 * holding a connection and row locks, and the capture must never wait for a
 * connection that the shop's other waiting transactions hold.
 */

const SIMULATOR_PATH = "/payment-simulator";

type SimulatedStatus = "CREATED" | "APPROVED" | "DECLINED" | "COMPLETED";

interface SimulatedOrderRow {
  id: string;
  request_id: string;
  order_reference: string;
  items: PaymentLineItem[];
  amount_cents: number;
  item_total_cents: number | null;
  shipping_cents: number;
  discount_cents: number;
  tax_total_cents: number;
  currency: string;
  return_url: string;
  cancel_url: string;
  status: SimulatedStatus;
  payer_id: string | null;
  capture_id: string | null;
  refunded_cents: number;
}

/** What the approval page shows. */
export interface SimulatedPayment {
  providerOrderId: string;
  orderId: string;
  items: PaymentLineItem[];
  /** The amount's parts, as PayPal's breakdown: itemTotal + taxTotal + shipping − discount = amount. */
  itemTotalCents: number;
  taxTotalCents: number;
  shippingCents: number;
  discountCents: number;
  amountCents: number;
  currency: string;
  status: SimulatedStatus;
}

// --- Connection pool ---------------------------------------------------------

// One pool per database (tests switch databases), shared by the process's module graphs.
const simulatorPools = () => processSingleton("simulator-pools", () => new WeakMap<Sequelize, pg.Pool>());

export function simulatorPool(): pg.Pool {
  const { sequelize } = getDb();
  const pools = simulatorPools();
  let pool = pools.get(sequelize);
  if (!pool) {
    const config = sequelize.config;
    pool = new pg.Pool({
      host: config.host,
      port: config.port ? Number(config.port) : undefined,
      user: config.username,
      password: config.password ?? undefined,
      database: config.database,
      ssl: (config.dialectOptions as { ssl?: pg.PoolConfig["ssl"] } | undefined)?.ssl,
      max: 3,
      idleTimeoutMillis: 5_000,
      allowExitOnIdle: true,
    });
    // A dropped idle connection (the database restarting) must not crash the shop.
    pool.on("error", (error) => getLogger().error({ err: error }, "Payment simulator connection failed"));
    pools.set(sequelize, pool);
  }
  return pool;
}

/** Closes the simulator's connections to the current database (tests, shutdown). */
export async function closeSimulatorPool(): Promise<void> {
  const pools = simulatorPools();
  const { sequelize } = getDb();
  const pool = pools.get(sequelize);
  pools.delete(sequelize);
  if (pool) await pool.end();
}

export async function inTransaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await simulatorPool().connect();
  try {
    await client.query("BEGIN");
    const result = await work(client);
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

// --- Helpers -----------------------------------------------------------------

const ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/** PayPal-like ids: upper-case letters and digits. */
export function simulatedId(prefix: string, length: number): string {
  const bytes = randomBytes(length);
  let id = prefix;
  for (const byte of bytes) id += ALPHABET[byte % ALPHABET.length];
  return id;
}

const ORDER_COLUMNS = `o.id, o.request_id, o.order_reference, o.items, o.amount_cents, o.item_total_cents,
  o.shipping_cents, o.discount_cents, o.tax_total_cents, o.currency,
  o.return_url, o.cancel_url, o.status, o.payer_id, o.capture_id,
  COALESCE((SELECT SUM(r.amount_cents) FROM payment_simulator_refunds r WHERE r.capture_id = o.capture_id), 0)::int
    AS refunded_cents`;

function approvalUrlOf(providerOrderId: string): string {
  return `${getConfig().appUrl}${SIMULATOR_PATH}/${encodeURIComponent(providerOrderId)}`;
}

/** A URL on this shop (a relative path is resolved against APP_URL). */
function ownUrl(url: string, what: string): string {
  const appUrl = getConfig().appUrl;
  const resolved = new URL(url, appUrl);
  if (resolved.origin !== new URL(appUrl).origin) throw new Error(`The ${what} must be on ${appUrl}: ${url}`);
  return resolved.toString();
}

function withParams(url: string, params: Record<string, string>): string {
  const target = new URL(url);
  for (const [name, value] of Object.entries(params)) target.searchParams.set(name, value);
  return target.toString();
}

/** Provider ids come from URLs and request bodies: anything else is simply unknown. */
function isSimulatorId(value: unknown): value is string {
  return typeof value === "string" && /^[A-Z0-9-]{1,64}$/.test(value);
}

async function findOrder(
  client: pg.Pool | pg.PoolClient,
  providerOrderId: string,
  forUpdate = false,
): Promise<SimulatedOrderRow | null> {
  if (!isSimulatorId(providerOrderId)) return null;
  const { rows } = await client.query<SimulatedOrderRow>(
    `SELECT ${ORDER_COLUMNS} FROM payment_simulator_orders o WHERE o.id = $1${forUpdate ? " FOR UPDATE OF o" : ""}`,
    [providerOrderId],
  );
  return rows[0] ?? null;
}

function captureStatusOf(row: SimulatedOrderRow): CaptureStatus {
  if (row.refunded_cents >= row.amount_cents) return "REFUNDED";
  if (row.refunded_cents > 0) return "PARTIALLY_REFUNDED";
  return "COMPLETED";
}

function providerStatusOf(status: SimulatedStatus): ProviderOrderStatus {
  // Like PayPal with payment_source.paypal: the payer must act until they approve.
  if (status === "COMPLETED") return "COMPLETED";
  if (status === "APPROVED") return "APPROVED";
  return "PAYER_ACTION_REQUIRED";
}

function captureResultOf(row: SimulatedOrderRow, alreadyCaptured: boolean): CaptureResult {
  return {
    providerOrderId: row.id,
    status: captureStatusOf(row),
    captureId: row.capture_id ?? "",
    amountCents: row.amount_cents,
    currency: row.currency,
    payerId: row.payer_id,
    alreadyCaptured,
  };
}

// --- The approval page's actions ---------------------------------------------

export async function getSimulatedPayment(providerOrderId: string): Promise<SimulatedPayment | null> {
  const row = await findOrder(simulatorPool(), providerOrderId);
  if (!row) return null;
  return {
    providerOrderId: row.id,
    orderId: row.order_reference,
    items: row.items,
    // Orders recorded before the breakdown was kept had only items.
    itemTotalCents: row.item_total_cents ?? row.amount_cents,
    taxTotalCents: row.tax_total_cents,
    shippingCents: row.shipping_cents,
    discountCents: row.discount_cents,
    amountCents: row.amount_cents,
    currency: row.currency,
    status: row.status,
  };
}

/**
 * The payer's answer on the approval page; returns where their browser goes,
 * with PayPal's parameters. Approve and Decline return to the return URL with
 * `token` and `PayerID` (a decline shows only at capture, as
 * INSTRUMENT_DECLINED); Cancel returns to the cancel URL with `token`. A
 * completed payment stays completed. Null for an unknown payment.
 */
export async function answerSimulatedPayment(
  providerOrderId: string,
  answer: "approve" | "decline" | "cancel",
): Promise<string | null> {
  if (answer === "cancel") {
    const row = await findOrder(simulatorPool(), providerOrderId);
    return row ? withParams(row.cancel_url, { token: row.id }) : null;
  }
  return inTransaction(async (client) => {
    const row = await findOrder(client, providerOrderId, true);
    if (!row) return null;
    const payerId = row.payer_id ?? simulatedId("SIMPAYER", 8);
    if (row.status !== "COMPLETED") {
      await client.query(
        `UPDATE payment_simulator_orders SET status = $2, payer_id = $3, updated_at = now() WHERE id = $1`,
        [row.id, answer === "approve" ? "APPROVED" : "DECLINED", payerId],
      );
    }
    return withParams(row.return_url, { token: row.id, PayerID: payerId });
  });
}

/**
 * PAYMENT_SIMULATOR_LATENCY_MS: the round trip of a real provider (PayPal
 * answers in 0.5–3 s), spent before the simulator touches its records, so the
 * shop really waits (the load benchmark uses 800 ms).
 */
async function providerLatency(): Promise<void> {
  const latency = getConfig().simulatorLatencyMs;
  if (latency > 0) await sleep(latency);
}

// --- The gateway -------------------------------------------------------------

export function createSimulatorGateway(): PaymentGateway {
  return {
    name: "simulator",

    async createOrder(input: CreatePaymentInput): Promise<CreatedPayment> {
      assertValidPaymentInput(input);
      const parts = breakdownOf(input);
      await providerLatency();
      const returnUrl = ownUrl(input.returnUrl, "return URL");
      const cancelUrl = ownUrl(input.cancelUrl, "cancel URL");
      const pool = simulatorPool();
      // The same request id creates the order once (PayPal-Request-Id).
      await pool.query(
        `INSERT INTO payment_simulator_orders
           (id, request_id, order_reference, items, amount_cents, currency, return_url, cancel_url,
            item_total_cents, shipping_cents, discount_cents, tax_total_cents)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
         ON CONFLICT (request_id) DO NOTHING`,
        [
          simulatedId("SIM", 17),
          input.requestId,
          input.orderId,
          JSON.stringify(input.items),
          input.totalCents,
          input.currency,
          returnUrl,
          cancelUrl,
          parts.itemTotalCents,
          parts.shippingCents,
          parts.discountCents,
          parts.taxTotalCents,
        ],
      );
      const { rows } = await pool.query<{ id: string; status: SimulatedStatus }>(
        "SELECT id, status FROM payment_simulator_orders WHERE request_id = $1",
        [input.requestId],
      );
      const row = rows[0];
      if (!row) throw new PaymentProviderError("The payment simulator lost an order it just created");
      return {
        providerOrderId: row.id,
        approvalUrl: approvalUrlOf(row.id),
        status: providerStatusOf(row.status),
      };
    },

    async captureOrder(input: CaptureInput): Promise<CaptureResult> {
      await providerLatency();
      const result = await inTransaction(async (client) => {
        const row = await findOrder(client, input.providerOrderId, true);
        if (!row) throw new PaymentOrderNotFoundError(input.providerOrderId);
        if (row.status === "COMPLETED") return captureResultOf(row, true);
        if (row.status === "DECLINED") throw new InstrumentDeclinedError(row.id, approvalUrlOf(row.id));
        if (row.status === "CREATED") throw new PaymentNotApprovedError(row.id, approvalUrlOf(row.id));
        const captureId = simulatedId("SIMCAP", 14);
        await client.query(
          `UPDATE payment_simulator_orders
              SET status = 'COMPLETED', capture_id = $2, capture_request_id = $3, captured_at = now(),
                  updated_at = now()
            WHERE id = $1`,
          [row.id, captureId, input.requestId],
        );
        return captureResultOf({ ...row, status: "COMPLETED", capture_id: captureId }, false);
      });
      assertCaptureAmount(input, result);
      return result;
    },

    async getOrder(providerOrderId: string): Promise<ProviderOrder> {
      const row = await findOrder(simulatorPool(), providerOrderId);
      if (!row) throw new PaymentOrderNotFoundError(providerOrderId);
      const status = providerStatusOf(row.status);
      return {
        providerOrderId: row.id,
        status,
        orderId: row.order_reference,
        amountCents: row.amount_cents,
        currency: row.currency,
        payerId: row.payer_id,
        approvalUrl: status === "COMPLETED" ? null : approvalUrlOf(row.id),
        capture: row.capture_id
          ? {
              captureId: row.capture_id,
              status: captureStatusOf(row),
              amountCents: row.amount_cents,
              currency: row.currency,
            }
          : null,
      };
    },

    async refundCapture(captureId: string, amountCents: number, requestId: string): Promise<RefundResult> {
      if (!Number.isSafeInteger(amountCents) || amountCents <= 0) {
        throw new Error(`Invalid refund amount: ${amountCents}`);
      }
      return inTransaction(async (client) => {
        const { rows } = await client.query<SimulatedOrderRow>(
          `SELECT ${ORDER_COLUMNS} FROM payment_simulator_orders o WHERE o.capture_id = $1 FOR UPDATE OF o`,
          [isSimulatorId(captureId) ? captureId : ""],
        );
        const row = rows[0];
        if (!row) throw new PaymentProviderError(`Unknown capture ${captureId}`, 404, "RESOURCE_NOT_FOUND");
        const existing = await client.query<{ id: string; amount_cents: number }>(
          "SELECT id, amount_cents FROM payment_simulator_refunds WHERE request_id = $1",
          [requestId],
        );
        const earlier = existing.rows[0];
        if (earlier) {
          return {
            refundId: earlier.id,
            status: "COMPLETED",
            amountCents: earlier.amount_cents,
            currency: row.currency,
          };
        }
        if (row.refunded_cents + amountCents > row.amount_cents) {
          throw new PaymentProviderError(
            "The refund is larger than what is left of the capture",
            422,
            "REFUND_AMOUNT_EXCEEDED",
          );
        }
        const refundId = simulatedId("SIMREF", 14);
        await client.query(
          "INSERT INTO payment_simulator_refunds (id, request_id, capture_id, amount_cents) VALUES ($1, $2, $3, $4)",
          [refundId, requestId, captureId, amountCents],
        );
        return { refundId, status: "COMPLETED", amountCents, currency: row.currency };
      });
    },
  };
}
