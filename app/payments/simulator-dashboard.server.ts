import { randomUUID } from "node:crypto";
import { getConfig } from "~/lib/server/config.server";
import { centsToDecimal } from "~/lib/shared/money";
import { PaymentProviderError } from "./errors.server";
import { inTransaction, simulatedId, simulatorPool } from "./simulator.server";

/**
 * The payment simulator's provider dashboard: what PayPal's own dashboard is
 * to a merchant. It lists the captures and does what only the provider's
 * side can do: refund any part of a capture, open and resolve a dispute. Each
 * change is made in the simulator's books first and then answered as the
 * event PayPal would send (PAYMENT.CAPTURE.REFUNDED, CUSTOMER.DISPUTE.*),
 * which the caller signs and sends to the shop's webhook route.
 */

export interface SimulatedCapture {
  captureId: string;
  providerOrderId: string;
  orderId: string;
  amountCents: number;
  refundedCents: number;
  disputeStatus: "open" | "resolved" | null;
  capturedAt: string;
}

export interface ProviderEventMessage {
  id: string;
  event_type: string;
  create_time: string;
  resource_type: string;
  summary: string;
  resource: Record<string, unknown>;
}

const DASHBOARD_LIMIT = 100;

/** The newest captures first (the last 100). */
export async function listSimulatedCaptures(): Promise<SimulatedCapture[]> {
  const { rows } = await simulatorPool().query<{
    captureId: string;
    providerOrderId: string;
    orderId: string;
    amountCents: number;
    refundedCents: number;
    disputeStatus: "open" | "resolved" | null;
    capturedAt: Date;
  }>(
    `SELECT o.capture_id AS "captureId", o.id AS "providerOrderId", o.order_reference AS "orderId",
            o.amount_cents AS "amountCents", o.dispute_status AS "disputeStatus", o.captured_at AS "capturedAt",
            COALESCE((SELECT SUM(r.amount_cents) FROM payment_simulator_refunds r WHERE r.capture_id = o.capture_id), 0)::int
              AS "refundedCents"
       FROM payment_simulator_orders o
      WHERE o.capture_id IS NOT NULL
      ORDER BY o.captured_at DESC NULLS LAST, o.id LIMIT ${DASHBOARD_LIMIT}`,
  );
  return rows.map((row) => ({ ...row, capturedAt: new Date(row.capturedAt).toISOString() }));
}

function message(
  eventType: string,
  resourceType: string,
  summary: string,
  resource: Record<string, unknown>,
) {
  return {
    id: `WH-SIM-${randomUUID()}`,
    event_type: eventType,
    create_time: new Date().toISOString(),
    resource_type: resourceType,
    summary,
    resource,
  } satisfies ProviderEventMessage;
}

function captureLink(captureId: string): string {
  return `${getConfig().appUrl}/payment-simulator/v2/payments/captures/${encodeURIComponent(captureId)}`;
}

/**
 * Refunds `amountCents` of a capture from the dashboard (no custom_id: the
 * shop did not ask for it). 400-like PaymentProviderError when it is more
 * than what is left, or the capture is unknown.
 */
export async function refundFromDashboard(
  captureId: string,
  amountCents: number,
): Promise<ProviderEventMessage> {
  if (!Number.isSafeInteger(amountCents) || amountCents <= 0) {
    throw new PaymentProviderError("Enter an amount above 0", 422, "INVALID_AMOUNT");
  }
  return inTransaction(async (client) => {
    const { rows } = await client.query<{ amount_cents: number; currency: string; refunded: number }>(
      `SELECT o.amount_cents, o.currency,
              COALESCE((SELECT SUM(r.amount_cents) FROM payment_simulator_refunds r WHERE r.capture_id = o.capture_id), 0)::int
                AS refunded
         FROM payment_simulator_orders o WHERE o.capture_id = $1 FOR UPDATE OF o`,
      [captureId],
    );
    const capture = rows[0];
    if (!capture) throw new PaymentProviderError(`Unknown capture ${captureId}`, 404, "RESOURCE_NOT_FOUND");
    if (capture.refunded + amountCents > capture.amount_cents) {
      throw new PaymentProviderError(
        "The refund is larger than what is left of the capture",
        422,
        "REFUND_AMOUNT_EXCEEDED",
      );
    }
    const refundId = simulatedId("SIMREF", 14);
    await client.query(
      "INSERT INTO payment_simulator_refunds (id, request_id, capture_id, amount_cents) VALUES ($1, $2, $3, $4)",
      [refundId, `dashboard-${randomUUID()}`, captureId, amountCents],
    );
    return message("PAYMENT.CAPTURE.REFUNDED", "refund", "A payment capture was refunded", {
      id: refundId,
      status: "COMPLETED",
      amount: { currency_code: capture.currency, value: centsToDecimal(amountCents) },
      create_time: new Date().toISOString(),
      links: [{ href: captureLink(captureId), rel: "up", method: "GET" }],
    });
  });
}

/** Opens (or resolves) a dispute on a capture. */
export async function setDisputeFromDashboard(
  captureId: string,
  status: "open" | "resolved",
): Promise<ProviderEventMessage> {
  return inTransaction(async (client) => {
    const { rows } = await client.query<{ id: string; amount_cents: number; currency: string }>(
      `UPDATE payment_simulator_orders SET dispute_status = $2, updated_at = now()
        WHERE capture_id = $1 RETURNING id, amount_cents, currency`,
      [captureId, status],
    );
    const capture = rows[0];
    if (!capture) throw new PaymentProviderError(`Unknown capture ${captureId}`, 404, "RESOURCE_NOT_FOUND");
    const resource = {
      dispute_id: `PP-D-SIM-${captureId}`,
      reason: "MERCHANDISE_OR_SERVICE_NOT_RECEIVED",
      status: status === "open" ? "OPEN" : "RESOLVED",
      dispute_amount: { currency_code: capture.currency, value: centsToDecimal(capture.amount_cents) },
      disputed_transactions: [{ seller_transaction_id: captureId }],
      ...(status === "resolved" ? { dispute_outcome: { outcome_code: "RESOLVED_IN_SELLER_FAVOUR" } } : {}),
    };
    return status === "open"
      ? message("CUSTOMER.DISPUTE.CREATED", "dispute", "A new dispute opened", resource)
      : message("CUSTOMER.DISPUTE.RESOLVED", "dispute", "A dispute was resolved", resource);
  });
}
