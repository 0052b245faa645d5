import { QueryTypes, type Transaction } from "sequelize";
import { z } from "zod";
import { getDb } from "~/models/db.server";
import { dayProblem } from "~/lib/shared/dates";
import { parsePaging } from "~/lib/server/paging.server";
import { likeContaining } from "~/lib/server/sql-like.server";
import { badRequest, conflict, type FieldErrors } from "~/lib/server/errors.server";
import {
  paginationOf,
  parsePagingLeniently,
  type Pagination,
  type Paging,
  type PagingLimits,
} from "~/lib/shared/paging";
import { EDITABLE_PRODUCT_FIELDS, productRowJson, type ProductReadRow } from "~/lib/shared/product";
import { fieldErrorsOf } from "~/lib/shared/schemas";
import { isUuid } from "~/lib/shared/uuid";
import {
  AUDIT_ACTIONS,
  AUDIT_ENTITIES,
  VERSION_CONFLICT_MESSAGE,
  type AuditAction,
  type AuditEntity,
} from "~/lib/shared/audit";
import type { VariantJson } from "~/lib/shared/variants";

/**
 * The audit log: every admin change on record (docs/architecture.md, rule 16,
 * docs/decisions/0015-audit-log-and-versions.md). An entry is written by
 * `recordAudit` in the transaction of the change it describes, so a change
 * that rolls back leaves no entry and one that commits always has one. The
 * app only inserts and reads: nothing here (or anywhere) updates or deletes
 * an entry, and the database refuses it.
 *
 * `changes` is `{ field: [before, after] }`. A created thing has `null`
 * before, a deleted one `null` after. A product's sizes and colours are one
 * key per variant and field, named by its SKU: `"variant TEE-M-BLK totalStock":
 * [3, 10]`; a variant added or removed is `"variant TEE-M-BLK": [null, {…}]`
 * (or the reverse).
 */

export { AUDIT_ACTIONS, AUDIT_ENTITIES, type AuditAction, type AuditEntity };

export type AuditChanges = Record<string, [unknown, unknown]>;

/** Who made a change: a signed-in admin, or (id null) a script or the shop itself. */
interface AuditActor {
  id: string | null;
  userName: string;
}

/** Who made a change and from which address (as the request log computes it; null outside a request). */
export interface AuditBy {
  actor: AuditActor;
  ip: string | null;
}

/** The command-line scripts (create-admin). */
export const SCRIPT_CHANGE: AuditBy = { actor: { id: null, userName: "script" }, ip: null };
/** The shop on its own: the payment reconciler, a capture that refunds, and callers that name nobody. */
export const SYSTEM_CHANGE: AuditBy = { actor: { id: null, userName: "system" }, ip: null };

export interface AuditEntryInput extends AuditBy {
  action: AuditAction;
  entity: AuditEntity;
  entityId: string;
  changes: AuditChanges;
}

/** The longest actor name an entry keeps; longer ones are cut. */
export const AUDIT_ACTOR_NAME_MAX = 100;

/**
 * Writes one entry in `transaction`, the transaction of the change itself.
 * There is no form without one: an entry written beside the change could
 * outlive a rollback, or be missing after a commit.
 */
export async function recordAudit(transaction: Transaction, entry: AuditEntryInput): Promise<void> {
  if (!transaction) throw new Error("recordAudit needs the transaction of the change it records");
  await getDb().sequelize.query(
    `INSERT INTO audit_log (actor_id, actor_name, action, entity, entity_id, changes, ip)
     VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7)`,
    {
      bind: [
        entry.actor.id,
        entry.actor.userName.slice(0, AUDIT_ACTOR_NAME_MAX),
        entry.action,
        entry.entity,
        entry.entityId,
        JSON.stringify(entry.changes),
        entry.ip,
      ],
      transaction,
    },
  );
}

/**
 * Writes several entries in `transaction` with one statement (a catalogue
 * import changes thousands of products at once), in the order given.
 */
export async function recordAudits(
  transaction: Transaction,
  entries: readonly AuditEntryInput[],
): Promise<void> {
  if (!transaction) throw new Error("recordAudits needs the transaction of the change it records");
  if (!entries.length) return;
  await getDb().sequelize.query(
    `INSERT INTO audit_log (actor_id, actor_name, action, entity, entity_id, changes, ip)
     SELECT e.actor_id, e.actor_name, e.action, e.entity, e.entity_id::uuid, e.changes::jsonb, e.ip
       FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[])
            WITH ORDINALITY AS e(actor_id, actor_name, action, entity, entity_id, changes, ip, n)
      ORDER BY e.n`,
    {
      bind: [
        entries.map((entry) => entry.actor.id),
        entries.map((entry) => entry.actor.userName.slice(0, AUDIT_ACTOR_NAME_MAX)),
        entries.map((entry) => entry.action),
        entries.map((entry) => entry.entity),
        entries.map((entry) => entry.entityId),
        entries.map((entry) => JSON.stringify(entry.changes)),
        entries.map((entry) => entry.ip),
      ],
      transaction,
    },
  );
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * `{ field: [before, after] }` for each of `fields` whose value differs. Pass
 * `null` for `before` (created) or `after` (deleted). For a change of a few
 * fields of an order (a tracking number, a carrier):
 * `recordAudit(transaction, { ...by, action: "update", entity: "order", entityId, changes: changedFields(before, after, ["trackingNumber", "carrier"]) })`.
 */
export function changedFields<T extends object>(
  before: T | null,
  after: T | null,
  fields: readonly (keyof T & string)[],
): AuditChanges {
  const changes: AuditChanges = {};
  for (const field of fields) {
    const old = before ? ((before[field] as unknown) ?? null) : null;
    const now = after ? ((after[field] as unknown) ?? null) : null;
    if (!same(old, now)) changes[field] = [old, now];
  }
  return changes;
}

/** The product fields an admin sets (not its id, reviews, version or the stock its variants sum up). */
const AUDITED_PRODUCT_FIELDS = EDITABLE_PRODUCT_FIELDS.filter((field) => field.name !== "totalStock").map(
  (field) => field.name,
);

const VARIANT_FIELDS = ["sku", "size", "colour", "totalStock", "price", "salePrice"] as const;

const variantSummary = ({ _id: _unused, sku: _sku, ...rest }: VariantJson) => rest;

/**
 * What changed in a product, its variants included (see the file's comment
 * for the keys). `before` null: created; `after` null: deleted. A variant's
 * price is the one shoppers pay for it, so a product price that its variants
 * inherit shows on each of them too.
 */
export function productChanges(before: ProductReadRow | null, after: ProductReadRow | null): AuditChanges {
  const changes = changedFields(
    before ? productRowJson(before) : null,
    after ? productRowJson(after) : null,
    AUDITED_PRODUCT_FIELDS,
  );
  const old = new Map((before?.variants ?? []).map((variant) => [variant._id, variant]));
  const kept = new Set<string>();
  for (const variant of after?.variants ?? []) {
    const previous = old.get(variant._id);
    if (!previous) {
      changes[`variant ${variant.sku}`] = [null, variantSummary(variant)];
      continue;
    }
    kept.add(variant._id);
    for (const [field, values] of Object.entries(changedFields(previous, variant, VARIANT_FIELDS)))
      changes[`variant ${variant.sku} ${field}`] = values;
  }
  for (const variant of before?.variants ?? []) {
    if (!kept.has(variant._id)) changes[`variant ${variant.sku}`] = [variantSummary(variant), null];
  }
  // The gallery as a whole (its order matters): each picture's URL, alt text and colour.
  const gallery = (row: ProductReadRow | null) =>
    row ? row.images.map(({ url, alt, colour }) => ({ url, alt, colour })) : null;
  if (!same(gallery(before), gallery(after))) changes.images = [gallery(before), gallery(after)];
  return changes;
}

// --- Reading ---------------------------------------------------------------------------------

interface AuditEntryJson {
  _id: string;
  at: string;
  actor: AuditActor;
  action: AuditAction;
  entity: AuditEntity;
  entityId: string;
  changes: AuditChanges;
  ip: string | null;
}

export const AUDIT_PAGING: PagingLimits = { defaultLimit: 50, maxLimit: 200, maxPage: 1_000_000 };
/** How many entries the product and order pages show of their own history. */
const HISTORY_LENGTH = 10;

interface AuditFilters {
  entity?: AuditEntity;
  entityId?: string;
  action?: AuditAction;
  /** Part of the actor's name, any case. */
  actor?: string;
  /** UTC days, both inclusive (YYYY-MM-DD). */
  from?: string;
  to?: string;
}

const day = (name: string) =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${name} must be a date written YYYY-MM-DD`)
    .superRefine((text, context) => {
      // The pattern's own refusal says it already: the date's problem is told only for a well-written one.
      const problem = /^\d{4}-\d{2}-\d{2}$/.test(text) ? dayProblem(name, text) : null;
      if (problem) context.addIssue({ code: "custom", message: problem });
    })
    .optional();

/** The filters of `GET /api/admin/audit` and of /admin/audit (the OpenAPI document shows this schema). */
export const auditQuerySchema = z.object({
  entity: z.enum(AUDIT_ENTITIES, { error: `entity must be one of: ${AUDIT_ENTITIES.join(", ")}` }).optional(),
  entityId: z
    .string()
    .refine(isUuid, "entityId must be an id (a UUID)")
    .optional()
    .meta({ description: "The product's, order's, feature image's or user's _id" }),
  action: z.enum(AUDIT_ACTIONS, { error: `action must be one of: ${AUDIT_ACTIONS.join(", ")}` }).optional(),
  actor: z
    .string()
    .max(AUDIT_ACTOR_NAME_MAX, `actor must be at most ${AUDIT_ACTOR_NAME_MAX} characters`)
    .optional()
    .meta({ description: "Part of the name of who made the change, any case" }),
  from: day("from").meta({ description: "From this day (UTC), inclusive" }),
  to: day("to").meta({ description: "To this day (UTC), inclusive" }),
});

function queryValues(params: URLSearchParams): Record<string, string | undefined> {
  return Object.fromEntries(
    Object.keys(auditQuerySchema.shape).map((key) => {
      const value = params.get(key)?.trim();
      return [key, value ? value : undefined];
    }),
  );
}

/** The API's query: any filter that is not valid is a 400 naming it. */
export function parseAuditQuery(params: URLSearchParams): AuditFilters & Paging {
  const parsed = auditQuerySchema.safeParse(queryValues(params));
  const errors: FieldErrors = parsed.success ? {} : fieldErrorsOf(parsed.error);
  const paging = parsePaging(params, AUDIT_PAGING, { errors });
  if (!parsed.success) throw badRequest(Object.values(errors).flat()[0]!, errors);
  return { ...parsed.data, ...paging };
}

/** The page's query: a filter that is not valid is left out (a hand-edited URL still shows a list). */
export function parseAuditQueryLeniently(params: URLSearchParams): AuditFilters & Paging {
  const values = queryValues(params);
  const filters: Record<string, string> = {};
  for (const [key, schema] of Object.entries(auditQuerySchema.shape)) {
    const parsed = schema.safeParse(values[key]);
    if (parsed.success && parsed.data !== undefined) filters[key] = parsed.data;
  }
  return { ...(filters as AuditFilters), ...parsePagingLeniently(params, AUDIT_PAGING) };
}

interface AuditRow {
  id: string;
  at: Date;
  actorId: string | null;
  actorName: string;
  action: AuditAction;
  entity: AuditEntity;
  entityId: string;
  changes: AuditChanges;
  ip: string | null;
  total: number;
}

/** Newest first, a page at a time. */
export async function listAudit(
  query: AuditFilters & Paging,
): Promise<{ entries: AuditEntryJson[]; pagination: Pagination }> {
  const conditions: string[] = [];
  const replacements: Record<string, unknown> = {
    limit: query.limit,
    offset: (query.page - 1) * query.limit,
  };
  const where = (condition: string, key: string, value: unknown) => {
    conditions.push(condition);
    replacements[key] = value;
  };
  if (query.entity) where("entity = :entity", "entity", query.entity);
  if (query.entityId) where("entity_id = :entityId", "entityId", query.entityId);
  if (query.action) where("action = :action", "action", query.action);
  if (query.actor) where("actor_name ILIKE :actor", "actor", likeContaining(query.actor));
  if (query.from) where("at >= (:from)::date AT TIME ZONE 'UTC'", "from", query.from);
  if (query.to) where("at < ((:to)::date + 1) AT TIME ZONE 'UTC'", "to", query.to);
  const rows = await getDb().sequelize.query<AuditRow>(
    `SELECT id, at, actor_id AS "actorId", actor_name AS "actorName", action, entity,
            entity_id AS "entityId", changes, ip, count(*) OVER ()::int AS total
       FROM audit_log ${conditions.length ? `WHERE ${conditions.join(" AND ")}` : ""}
      ORDER BY seq DESC LIMIT :limit OFFSET :offset`,
    { replacements, type: QueryTypes.SELECT },
  );
  // A page past the end has no rows to carry the total: count it.
  const total =
    rows[0]?.total ??
    (
      await getDb().sequelize.query<{ total: number }>(
        `SELECT count(*)::int AS total FROM audit_log ${conditions.length ? `WHERE ${conditions.join(" AND ")}` : ""}`,
        { replacements, type: QueryTypes.SELECT },
      )
    )[0]!.total;
  return {
    entries: rows.map((row) => ({
      _id: row.id,
      at: new Date(row.at).toISOString(),
      actor: { id: row.actorId, userName: row.actorName },
      action: row.action,
      entity: row.entity,
      entityId: row.entityId,
      changes: row.changes,
      ip: row.ip,
    })),
    pagination: paginationOf(query, total),
  };
}

/** The latest entries of one product or order, for its own page. */
export async function historyOf(entity: AuditEntity, entityId: string): Promise<AuditEntryJson[]> {
  const { entries } = await listAudit({ entity, entityId, page: 1, limit: HISTORY_LENGTH });
  return entries;
}

// --- Versions ---------------------------------------------------------------------------------

export { VERSION_CONFLICT_MESSAGE };
const VERSION_MESSAGE = "version must be a whole number from 1 (the version the edit was based on)";

/**
 * The `version` an admin edit was based on (JSON number or form text), or
 * null when it names none (the spec's clients): such an edit applies as it
 * always did. Anything else is a 400.
 */
export function expectedVersionOf(input: Record<string, unknown>): number | null {
  const value = input.version;
  if (value === undefined || value === null || value === "") return null;
  const number = typeof value === "string" && /^\d{1,9}$/.test(value.trim()) ? Number(value) : value;
  if (typeof number !== "number" || !Number.isSafeInteger(number) || number < 1)
    throw badRequest(VERSION_MESSAGE, { version: [VERSION_MESSAGE] });
  return number;
}

/** 409 when the row (locked by the caller) is no longer the version the edit was based on. */
export function refuseStaleVersion(expected: number | null, current: number): void {
  if (expected !== null && expected !== current) throw conflict(VERSION_CONFLICT_MESSAGE);
}
