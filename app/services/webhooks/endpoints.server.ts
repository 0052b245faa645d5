import { QueryTypes, type Transaction } from "sequelize";
import { AddressRefusedError, resolvePublicTarget } from "~/lib/server/address-guard.server";
import { getConfig } from "~/lib/server/config.server";
import { badRequest, notFound } from "~/lib/server/errors.server";
import { newWebhookSecret } from "~/lib/server/standard-webhooks.server";
import { fieldErrorsOf } from "~/lib/shared/schemas";
import { isUuid } from "~/lib/shared/uuid";
import {
  WEBHOOK_TEXT,
  webhookEndpointSchema,
  type WebhookEndpointInput,
  type WebhookEndpointJson,
  type WebhookEventType,
} from "~/lib/shared/webhooks";
import { getDb } from "~/models/db.server";
import { changedFields, recordAudit, SYSTEM_CHANGE, type AuditBy } from "../audit.server";

/**
 * The admin's webhook endpoints (API.md, "Webhooks"): each change on record
 * in the audit log, the URL checked against private networks when saved
 * (and again by the sender, resolved, for every send). The secret is
 * answered once, when the endpoint is created.
 */

interface EndpointRow {
  id: string;
  url: string;
  events: WebhookEventType[];
  active: boolean;
  disabledReason: string | null;
  createdAt: Date;
}

const COLUMNS = `e.id, e.url, e.events, e.active, e.disabled_reason AS "disabledReason", e.created_at AS "createdAt"`;

function toJson(row: EndpointRow): WebhookEndpointJson {
  return {
    _id: row.id,
    url: row.url,
    events: row.events,
    active: row.active,
    disabledReason: row.disabledReason,
    createdAt: new Date(row.createdAt).toISOString(),
  };
}

const AUDITED_FIELDS = ["url", "events", "active"] as const;

export async function listWebhookEndpoints(): Promise<WebhookEndpointJson[]> {
  const rows = await getDb().sequelize.query<EndpointRow>(
    `SELECT ${COLUMNS} FROM webhook_endpoints e ORDER BY e.created_at, e.id`,
    { type: QueryTypes.SELECT },
  );
  return rows.map(toJson);
}

async function readEndpoint(id: string, transaction?: Transaction, lock = false) {
  const [row] = await getDb().sequelize.query<EndpointRow>(
    `SELECT ${COLUMNS} FROM webhook_endpoints e WHERE e.id = :id${lock ? " FOR UPDATE" : ""}`,
    { replacements: { id }, type: QueryTypes.SELECT, transaction },
  );
  return row ? toJson(row) : null;
}

export async function getWebhookEndpoint(id: unknown): Promise<WebhookEndpointJson> {
  const endpoint = isUuid(id) ? await readEndpoint(id) : null;
  if (!endpoint) throw notFound(WEBHOOK_TEXT.notFound);
  return endpoint;
}

/** Validates the input and checks its URL's addresses (no transaction is open: this may wait on DNS). */
async function parseInput(input: unknown): Promise<WebhookEndpointInput> {
  const parsed = webhookEndpointSchema.safeParse(input);
  if (!parsed.success) {
    const errors = fieldErrorsOf(parsed.error);
    throw badRequest(Object.values(errors).flat()[0] ?? "Invalid webhook endpoint", errors);
  }
  const { allowHttp, allowPrivate } = getConfig().webhooks;
  try {
    await resolvePublicTarget(parsed.data.url, { allowHttp, allowPrivate });
  } catch (error) {
    if (error instanceof AddressRefusedError) throw badRequest(error.message, { url: [error.message] });
    throw error;
  }
  return parsed.data;
}

/** Adds an endpoint; answers it with its signing secret, which is never shown again. */
export async function createWebhookEndpoint(
  input: unknown,
  by: AuditBy = SYSTEM_CHANGE,
): Promise<WebhookEndpointJson & { secret: string }> {
  const values = await parseInput(input);
  const secret = newWebhookSecret();
  const { sequelize } = getDb();
  return sequelize.transaction(async (transaction) => {
    const [row] = await sequelize.query<{ id: string }>(
      `INSERT INTO webhook_endpoints (url, events, secret, active)
       VALUES (:url, ARRAY[:events]::text[], :secret, :active) RETURNING id`,
      { replacements: { ...values, secret }, type: QueryTypes.SELECT, transaction },
    );
    const endpoint = (await readEndpoint(row!.id, transaction))!;
    await recordAudit(transaction, {
      ...by,
      action: "create",
      entity: "webhookEndpoint",
      entityId: endpoint._id,
      changes: changedFields(null, endpoint, AUDITED_FIELDS),
    });
    return { ...endpoint, secret };
  });
}

/**
 * Changes an endpoint: the fields sent replace the stored ones. Switching an
 * endpoint on again clears the reason it was switched off and its count of
 * failures, and its pending deliveries are due at once.
 */
export async function updateWebhookEndpoint(
  id: unknown,
  input: unknown,
  by: AuditBy = SYSTEM_CHANGE,
): Promise<WebhookEndpointJson> {
  const before = await getWebhookEndpoint(id);
  const patch = typeof input === "object" && input !== null ? (input as Record<string, unknown>) : {};
  const values = await parseInput({
    url: before.url,
    events: before.events,
    active: before.active,
    ...patch,
  });
  const { sequelize } = getDb();
  return sequelize.transaction(async (transaction) => {
    const current = await readEndpoint(before._id, transaction, true);
    if (!current) throw notFound(WEBHOOK_TEXT.notFound);
    const reactivated = values.active && !current.active;
    await sequelize.query(
      `UPDATE webhook_endpoints
          SET url = :url, events = ARRAY[:events]::text[], active = :active, updated_at = now(),
              disabled_reason = CASE WHEN :active THEN NULL ELSE disabled_reason END,
              consecutive_failures = CASE WHEN :reactivated THEN 0 ELSE consecutive_failures END
        WHERE id = :id`,
      { replacements: { ...values, id: current._id, reactivated }, transaction },
    );
    if (reactivated) {
      await sequelize.query(
        `UPDATE webhook_deliveries SET next_attempt_at = now() WHERE endpoint_id = :id AND status = 'pending'`,
        { replacements: { id: current._id }, transaction },
      );
    }
    const endpoint = (await readEndpoint(current._id, transaction))!;
    const changes = changedFields(current, endpoint, AUDITED_FIELDS);
    if (Object.keys(changes).length) {
      await recordAudit(transaction, {
        ...by,
        action: "update",
        entity: "webhookEndpoint",
        entityId: endpoint._id,
        changes,
      });
    }
    return endpoint;
  });
}

/** Deletes an endpoint with its deliveries and their log. */
export async function deleteWebhookEndpoint(id: unknown, by: AuditBy = SYSTEM_CHANGE): Promise<void> {
  if (!isUuid(id)) throw notFound(WEBHOOK_TEXT.notFound);
  const { sequelize } = getDb();
  await sequelize.transaction(async (transaction) => {
    const current = await readEndpoint(id, transaction, true);
    if (!current) throw notFound(WEBHOOK_TEXT.notFound);
    await sequelize.query(`DELETE FROM webhook_endpoints WHERE id = :id`, {
      replacements: { id },
      transaction,
    });
    await recordAudit(transaction, {
      ...by,
      action: "delete",
      entity: "webhookEndpoint",
      entityId: current._id,
      changes: changedFields(current, null, AUDITED_FIELDS),
    });
  });
}
