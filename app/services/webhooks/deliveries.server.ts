import { QueryTypes, type Sequelize } from "sequelize";
import { conflict, notFound } from "~/lib/server/errors.server";
import { withPublicImageUrls } from "~/lib/server/public-url.server";
import { processSingleton } from "~/lib/server/process-singleton.server";
import { isUuid } from "~/lib/shared/uuid";
import {
  WEBHOOK_MAX_CONSECUTIVE_FAILURES,
  WEBHOOK_TEXT,
  type WebhookAttemptJson,
} from "~/lib/shared/webhooks";
import { getDb } from "~/models/db.server";
import { getProduct } from "../catalog.server";
import { enqueueWebhookDisabledMails } from "../mail/webhook-mails.server";
import { getOrderDetails } from "../orders.server";
import { getReturn } from "../returns.server";
import { getWebhookEndpoint } from "./endpoints.server";

/**
 * The webhook deliveries' store (migration 0031): claiming due deliveries,
 * recording each attempt, switching off an endpoint that keeps failing, the
 * delivery log and the admin's retry. Each function is one short statement or
 * transaction; the sender (sender.server.ts) sends with none open.
 */

export interface ClaimedDelivery {
  id: string;
  attempts: number;
  endpointId: string;
  url: string;
  secret: string;
  eventId: string;
  type: string;
  subject: string;
  occurredAt: Date;
  payload: unknown;
  /** The event's place in the order of all events (bigint as text). */
  seq: string;
}

const wake = () => processSingleton<{ wake?: () => void }>("webhook-sender-wake", () => ({}));

/** The running sender registers here; a retry asked for by an admin goes out at once. */
export function setWebhookSenderWake(callback: (() => void) | undefined): void {
  wake().wake = callback;
}

export function wakeWebhookSender(): void {
  wake().wake?.();
}

/**
 * Claims up to `limit` due deliveries in one statement, at most `perEndpoint`
 * in flight per endpoint (counting those other senders hold), so that one
 * slow endpoint never takes every slot. An event waits, on its first attempt,
 * until the earlier events of the same subject (an order, a product) for the
 * same endpoint have had theirs: a receiver gets one order's events in order.
 * A retry does not wait. Claiming pushes `next_attempt_at` and `leased_until`
 * ahead by the lease: a sender killed mid-send leaves the row to be claimed
 * again when the lease ends, with the same event id.
 */
export async function claimDueDeliveries(
  sequelize: Sequelize,
  options: { limit: number; perEndpoint: number; leaseMs: number },
): Promise<ClaimedDelivery[]> {
  if (options.limit <= 0) return [];
  return sequelize
    .query<ClaimedDelivery>(
      `WITH busy AS (
       SELECT endpoint_id, count(*) AS in_flight FROM webhook_deliveries
        WHERE status = 'pending' AND leased_until > now() GROUP BY endpoint_id
     ),
     due AS (
       SELECT d.id, d.endpoint_id, d.attempts, ev.seq, ev.subject, COALESCE(b.in_flight, 0) AS in_flight
         FROM webhook_deliveries d
         JOIN webhook_events ev ON ev.id = d.event_id
         JOIN webhook_endpoints e ON e.id = d.endpoint_id AND e.active
         LEFT JOIN busy b ON b.endpoint_id = d.endpoint_id
        WHERE d.status = 'pending' AND d.next_attempt_at <= now() AND COALESCE(b.in_flight, 0) < :perEndpoint
        ORDER BY ev.seq LIMIT 1000
     ),
     ranked AS (
       SELECT due.id, due.seq, due.in_flight,
              row_number() OVER (PARTITION BY due.endpoint_id ORDER BY due.seq) AS rank
         FROM due
        WHERE due.attempts > 0 OR NOT EXISTS (
                SELECT 1 FROM webhook_events ev2
                  JOIN webhook_deliveries d2 ON d2.event_id = ev2.id AND d2.endpoint_id = due.endpoint_id
                 WHERE ev2.subject = due.subject AND ev2.seq < due.seq
                   AND d2.status = 'pending' AND (d2.attempts = 0 OR d2.leased_until > now()))
     ),
     chosen AS (
       SELECT id FROM ranked WHERE rank + in_flight <= :perEndpoint ORDER BY seq LIMIT :limit
     ),
     locked AS (
       SELECT d.id FROM webhook_deliveries d
        WHERE d.id IN (SELECT id FROM chosen) AND d.status = 'pending' AND d.next_attempt_at <= now()
        FOR UPDATE SKIP LOCKED
     )
     UPDATE webhook_deliveries d
        SET attempts = d.attempts + 1,
            next_attempt_at = now() + make_interval(secs => :leaseSeconds),
            leased_until = now() + make_interval(secs => :leaseSeconds)
       FROM locked, webhook_events ev, webhook_endpoints e
      WHERE d.id = locked.id AND ev.id = d.event_id AND e.id = d.endpoint_id
     RETURNING d.id, d.attempts, e.id AS "endpointId", e.url, e.secret, ev.id AS "eventId", ev.type,
               ev.subject, ev.occurred_at AS "occurredAt", ev.payload, ev.seq`,
      {
        replacements: {
          limit: options.limit,
          perEndpoint: options.perEndpoint,
          leaseSeconds: options.leaseMs / 1000,
        },
        type: QueryTypes.SELECT,
      },
    )
    .then((rows) => rows.sort((a, b) => (BigInt(a.seq) < BigInt(b.seq) ? -1 : 1)));
}

/** The entity as the API shows it, or `{ _id }` when it is gone. */
async function renderData(type: string, subject: string): Promise<unknown> {
  const id = subject.slice(subject.indexOf(":") + 1);
  try {
    if (type.startsWith("order.")) return await getOrderDetails(id);
    if (type.startsWith("return.") || type.startsWith("exchange.")) return await getReturn(id);
    if (type.startsWith("product.")) return (await getProduct(id)) ?? { _id: id };
  } catch (error) {
    if ((error as { status?: number }).status === 404) return { _id: id };
    throw error;
  }
  return { _id: id };
}

/**
 * The event's `data`: rendered once (the first sender to get there stores it)
 * and then the same bytes on every attempt and for every endpoint.
 */
export async function payloadOf(delivery: ClaimedDelivery, sequelize: Sequelize): Promise<unknown> {
  if (delivery.payload !== null && delivery.payload !== undefined) return delivery.payload;
  const data = withPublicImageUrls(await renderData(delivery.type, delivery.subject));
  const [stored] = await sequelize.query<{ payload: unknown }>(
    `UPDATE webhook_events SET payload = COALESCE(payload, CAST(:payload AS jsonb)) WHERE id = :id
     RETURNING payload`,
    { replacements: { id: delivery.eventId, payload: JSON.stringify(data) }, type: QueryTypes.SELECT },
  );
  return stored?.payload ?? data;
}

export interface AttemptOutcome {
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

/** A 2xx: delivered; the endpoint's run of failures ends. */
export async function markDelivered(
  sequelize: Sequelize,
  delivery: ClaimedDelivery,
  outcome: AttemptOutcome,
): Promise<void> {
  await sequelize.transaction(async (transaction) => {
    await sequelize.query(
      `INSERT INTO webhook_attempts (delivery_id, endpoint_id, event_id, status_code, duration_ms)
       VALUES (:id, :endpointId, :eventId, :statusCode, :durationMs)`,
      { replacements: { ...delivery, ...outcome }, transaction },
    );
    await sequelize.query(
      `UPDATE webhook_deliveries SET status = 'delivered', delivered_at = now(), leased_until = NULL,
              last_status_code = :statusCode, last_error = NULL
        WHERE id = :id`,
      { replacements: { id: delivery.id, statusCode: outcome.statusCode }, transaction },
    );
    await sequelize.query(
      `UPDATE webhook_endpoints SET consecutive_failures = 0 WHERE id = :endpointId AND consecutive_failures <> 0`,
      { replacements: { endpointId: delivery.endpointId }, transaction },
    );
  });
}

/**
 * Anything else: the attempt is logged, the delivery retried in `retryInMs`
 * (or given up when `giveUp`), and the endpoint's run of failures grows; at
 * WEBHOOK_MAX_CONSECUTIVE_FAILURES it is switched off with a reason, and the
 * admins get a mail, in the same transaction. Returns true when this failure
 * switched the endpoint off.
 */
export async function markFailed(
  sequelize: Sequelize,
  delivery: ClaimedDelivery,
  outcome: AttemptOutcome,
  retry: { retryInMs: number; giveUp: boolean },
): Promise<boolean> {
  return sequelize.transaction(async (transaction) => {
    const error = (outcome.error ?? `HTTP ${outcome.statusCode}`).slice(0, 2000);
    await sequelize.query(
      `INSERT INTO webhook_attempts (delivery_id, endpoint_id, event_id, status_code, duration_ms, error)
       VALUES (:id, :endpointId, :eventId, :statusCode, :durationMs, :error)`,
      { replacements: { ...delivery, ...outcome, error }, transaction },
    );
    await sequelize.query(
      `UPDATE webhook_deliveries
          SET status = :status, leased_until = NULL, last_status_code = :statusCode, last_error = :error,
              next_attempt_at = now() + make_interval(secs => :retrySeconds)
        WHERE id = :id AND status = 'pending'`,
      {
        replacements: {
          id: delivery.id,
          status: retry.giveUp ? "failed" : "pending",
          statusCode: outcome.statusCode,
          error,
          retrySeconds: retry.retryInMs / 1000,
        },
        transaction,
      },
    );
    const [endpoint] = await sequelize.query<{ failures: number; active: boolean; url: string }>(
      `UPDATE webhook_endpoints SET consecutive_failures = consecutive_failures + 1
        WHERE id = :endpointId RETURNING consecutive_failures AS failures, active, url`,
      { replacements: { endpointId: delivery.endpointId }, type: QueryTypes.SELECT, transaction },
    );
    if (!endpoint?.active || endpoint.failures < WEBHOOK_MAX_CONSECUTIVE_FAILURES) return false;
    const reason = `Switched off after ${endpoint.failures} failed deliveries in a row (last: ${error.slice(0, 300)})`;
    await sequelize.query(
      `UPDATE webhook_endpoints SET active = false, disabled_reason = :reason, updated_at = now()
        WHERE id = :endpointId`,
      { replacements: { endpointId: delivery.endpointId, reason }, transaction },
    );
    await enqueueWebhookDisabledMails({ id: delivery.endpointId, url: endpoint.url, reason }, transaction);
    return true;
  });
}

const DELIVERY_LOG_LIMIT = 100;

/** The endpoint's delivery log, newest first (the last 100 attempts). */
export async function listWebhookAttempts(endpointId: unknown): Promise<WebhookAttemptJson[]> {
  const endpoint = await getWebhookEndpoint(endpointId);
  const rows = await getDb().sequelize.query<{
    id: string;
    deliveryId: string;
    eventId: string;
    type: string;
    statusCode: number | null;
    durationMs: number;
    error: string | null;
    at: Date;
    deliveryStatus: WebhookAttemptJson["deliveryStatus"];
  }>(
    `SELECT a.id, a.delivery_id AS "deliveryId", a.event_id AS "eventId", ev.type, a.status_code AS "statusCode",
            a.duration_ms AS "durationMs", a.error, a.at, d.status AS "deliveryStatus"
       FROM webhook_attempts a
       JOIN webhook_events ev ON ev.id = a.event_id
       JOIN webhook_deliveries d ON d.id = a.delivery_id
      WHERE a.endpoint_id = :endpointId
      ORDER BY a.at DESC, a.id DESC LIMIT ${DELIVERY_LOG_LIMIT}`,
    { replacements: { endpointId: endpoint._id }, type: QueryTypes.SELECT },
  );
  return rows.map((row) => ({
    _id: row.id,
    deliveryId: row.deliveryId,
    eventId: row.eventId,
    type: row.type,
    statusCode: row.statusCode,
    durationMs: row.durationMs,
    error: row.error,
    at: new Date(row.at).toISOString(),
    deliveryStatus: row.deliveryStatus,
  }));
}

/** Deliveries not yet through for the endpoint: waiting for their first try or a retry. */
export async function countPendingDeliveries(endpointId: string): Promise<number> {
  const [row] = await getDb().sequelize.query<{ pending: number }>(
    `SELECT count(*)::int AS pending FROM webhook_deliveries WHERE endpoint_id = :endpointId AND status = 'pending'`,
    { replacements: { endpointId }, type: QueryTypes.SELECT },
  );
  return row?.pending ?? 0;
}

/**
 * Sends a delivery's event again, now, with the same event id (`deliveryId`
 * may name the delivery or one of its logged attempts). 409 while the
 * endpoint is switched off: switch it on first.
 */
export async function retryWebhookDelivery(endpointId: unknown, deliveryId: unknown): Promise<void> {
  const endpoint = await getWebhookEndpoint(endpointId);
  if (!isUuid(deliveryId)) throw notFound(WEBHOOK_TEXT.deliveryNotFound);
  if (!endpoint.active) throw conflict("The endpoint is switched off: switch it on first");
  const [row] = await getDb().sequelize.query<{ id: string }>(
    `UPDATE webhook_deliveries d
        SET status = 'pending', next_attempt_at = now(), leased_until = NULL, delivered_at = NULL
      WHERE d.endpoint_id = :endpointId
        AND d.id = COALESCE((SELECT a.delivery_id FROM webhook_attempts a WHERE a.id = :deliveryId), :deliveryId)
        AND (d.status <> 'pending' OR d.leased_until IS NULL OR d.leased_until <= now())
      RETURNING d.id`,
    { replacements: { endpointId: endpoint._id, deliveryId }, type: QueryTypes.SELECT },
  );
  if (!row) {
    const [exists] = await getDb().sequelize.query<{ id: string }>(
      `SELECT d.id FROM webhook_deliveries d WHERE d.endpoint_id = :endpointId
          AND d.id = COALESCE((SELECT a.delivery_id FROM webhook_attempts a WHERE a.id = :deliveryId), :deliveryId)`,
      { replacements: { endpointId: endpoint._id, deliveryId }, type: QueryTypes.SELECT },
    );
    if (!exists) throw notFound(WEBHOOK_TEXT.deliveryNotFound);
    throw conflict("The event is being sent right now");
  }
  wakeWebhookSender();
}

/** Writes LOW_STOCK_THRESHOLD where the stock trigger reads it (at start: the trigger cannot read the environment). */
export async function syncWebhookSettings(sequelize: Sequelize, lowStockThreshold: number): Promise<void> {
  await sequelize.query(
    `UPDATE webhook_settings SET low_stock_threshold = :lowStockThreshold
      WHERE low_stock_threshold <> :lowStockThreshold`,
    { replacements: { lowStockThreshold } },
  );
}
