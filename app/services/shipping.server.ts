import { QueryTypes, type Transaction } from "sequelize";
import { getDb } from "~/models/db.server";
import { badRequest, isUniqueViolation, notFound } from "~/lib/server/errors.server";
import {
  estimatedDaysLabel,
  shippingMethodInputSchema,
  type AdminShippingMethodJson,
  type ShippingMethodJson,
} from "~/lib/shared/delivery-schemas";
import { centsToDecimal, decimalToNumber, toCents } from "~/lib/shared/money";
import type { ShippingChoice } from "~/lib/shared/order-money";
import { fieldErrorsOf } from "~/lib/shared/schemas";
import { isUuid } from "~/lib/shared/uuid";
import { changedFields, recordAudit, SYSTEM_CHANGE, type AuditBy } from "./audit.server";

/**
 * Delivery options (API.md "Delivery, discount codes, returns"): the active
 * ones, cheapest first, are what the checkout offers; with none, delivery is
 * free and the checkout offers no choice. An order keeps the name and price
 * of its option, so an admin's later edit or deletion changes no order.
 */

export const SHIPPING_TEXT = {
  notFound: "Delivery option not found",
  unknownForOrder: "This delivery option is not available. Please choose another one.",
  nameTaken: "A delivery option with this name exists already",
  created: "Delivery option added",
  updated: "Delivery option updated",
  deleted: "Delivery option deleted",
} as const;

interface ShippingMethodRow {
  id: string;
  name: string;
  price: string;
  estimatedDaysMin: number | null;
  estimatedDaysMax: number | null;
  estimatedText: string | null;
  freeOver: string | null;
  active: boolean;
  position: number;
}

const COLUMNS = `id, name, price, estimated_days_min AS "estimatedDaysMin", estimated_days_max AS "estimatedDaysMax",
  estimated_text AS "estimatedText", free_over AS "freeOver", active, position`;
/** Cheapest first; the admin's position, then the name, break ties. */
const CHEAPEST_FIRST = "ORDER BY price, position, lower(name), id";

function toJson(row: ShippingMethodRow): ShippingMethodJson {
  return {
    _id: row.id,
    name: row.name,
    price: decimalToNumber(row.price),
    estimatedDays: estimatedDaysLabel(row.estimatedDaysMin, row.estimatedDaysMax, row.estimatedText),
    freeOver: row.freeOver === null ? null : decimalToNumber(row.freeOver),
  };
}

function toAdminJson(row: ShippingMethodRow): AdminShippingMethodJson {
  return {
    ...toJson(row),
    estimatedDaysMin: row.estimatedDaysMin,
    estimatedDaysMax: row.estimatedDaysMax,
    estimatedText: row.estimatedText,
    active: row.active,
    position: row.position,
  };
}

/** A delivery option as the money module reads it. */
export function shippingChoiceOf(method: ShippingMethodJson): ShippingChoice {
  return {
    priceCents: toCents(method.price),
    freeOverCents: method.freeOver === null ? null : toCents(method.freeOver),
  };
}

/** The options a shopper can choose, cheapest first. */
export async function listActiveShippingMethods(transaction?: Transaction): Promise<ShippingMethodJson[]> {
  const rows = await getDb().sequelize.query<ShippingMethodRow>(
    `SELECT ${COLUMNS} FROM shipping_methods WHERE active ${CHEAPEST_FIRST}`,
    { type: QueryTypes.SELECT, transaction },
  );
  return rows.map(toJson);
}

/** Every option, active or not, for the admin. */
export async function listShippingMethods(): Promise<AdminShippingMethodJson[]> {
  const rows = await getDb().sequelize.query<ShippingMethodRow>(
    `SELECT ${COLUMNS} FROM shipping_methods ${CHEAPEST_FIRST}`,
    { type: QueryTypes.SELECT },
  );
  return rows.map(toAdminJson);
}

export async function getShippingMethod(id: unknown): Promise<AdminShippingMethodJson> {
  if (!isUuid(id)) throw notFound(SHIPPING_TEXT.notFound);
  const [row] = await getDb().sequelize.query<ShippingMethodRow>(
    `SELECT ${COLUMNS} FROM shipping_methods WHERE id = :id`,
    { replacements: { id }, type: QueryTypes.SELECT },
  );
  if (!row) throw notFound(SHIPPING_TEXT.notFound);
  return toAdminJson(row);
}

function parseInput(input: unknown) {
  const parsed = shippingMethodInputSchema.safeParse(input);
  if (!parsed.success) {
    const errors = fieldErrorsOf(parsed.error);
    throw badRequest(Object.values(errors).flat()[0] ?? "Invalid delivery option", errors);
  }
  const data = parsed.data;
  return {
    name: data.name,
    price: centsToDecimal(data.price!),
    estimatedDaysMin: data.estimatedDaysMin ?? null,
    estimatedDaysMax: data.estimatedDaysMax ?? null,
    estimatedText: data.estimatedText ?? null,
    freeOver: data.freeOver === undefined ? null : centsToDecimal(data.freeOver),
    active: data.active,
    position: data.position ?? 0,
  };
}

function nameTaken(error: unknown): never {
  if (isUniqueViolation(error))
    throw badRequest(SHIPPING_TEXT.nameTaken, { name: [SHIPPING_TEXT.nameTaken] });
  throw error;
}

/** What an option's audit entry compares: what the admin sets. */
const AUDITED_FIELDS = [
  "name",
  "price",
  "estimatedDaysMin",
  "estimatedDaysMax",
  "estimatedText",
  "freeOver",
  "active",
  "position",
] as const;

/** Adds a delivery option (on record in the audit log). 400 with the field's message for bad input or a name in use. */
export async function createShippingMethod(
  input: unknown,
  by: AuditBy = SYSTEM_CHANGE,
): Promise<AdminShippingMethodJson> {
  const values = parseInput(input);
  const { sequelize } = getDb();
  return sequelize
    .transaction(async (transaction) => {
      const [row] = await sequelize.query<ShippingMethodRow>(
        `INSERT INTO shipping_methods (name, price, estimated_days_min, estimated_days_max, estimated_text,
                                       free_over, active, position)
         VALUES (:name, :price, :estimatedDaysMin, :estimatedDaysMax, :estimatedText, :freeOver, :active, :position)
         RETURNING ${COLUMNS}`,
        { replacements: values, type: QueryTypes.SELECT, transaction },
      );
      const method = toAdminJson(row!);
      await recordAudit(transaction, {
        ...by,
        action: "create",
        entity: "shippingMethod",
        entityId: method._id,
        changes: changedFields(null, method, AUDITED_FIELDS),
      });
      return method;
    })
    .catch(nameTaken);
}

/**
 * Changes a delivery option: the fields sent replace the stored ones (a
 * partial body keeps the others). Orders keep what they were sent with.
 */
export async function updateShippingMethod(
  id: unknown,
  input: unknown,
  by: AuditBy = SYSTEM_CHANGE,
): Promise<AdminShippingMethodJson> {
  if (!isUuid(id)) throw notFound(SHIPPING_TEXT.notFound);
  const patch = typeof input === "object" && input !== null ? (input as Record<string, unknown>) : {};
  const { sequelize } = getDb();
  return sequelize
    .transaction(async (transaction) => {
      // Locked, so that the audit entry's "before" is what this update replaced.
      const [locked] = await sequelize.query<ShippingMethodRow>(
        `SELECT ${COLUMNS} FROM shipping_methods WHERE id = :id FOR UPDATE`,
        { replacements: { id }, type: QueryTypes.SELECT, transaction },
      );
      if (!locked) throw notFound(SHIPPING_TEXT.notFound);
      const current = toAdminJson(locked);
      const merged = {
        name: current.name,
        price: current.price,
        estimatedDaysMin: current.estimatedDaysMin,
        estimatedDaysMax: current.estimatedDaysMax,
        estimatedText: current.estimatedText,
        freeOver: current.freeOver,
        active: current.active,
        position: current.position,
        ...patch,
      };
      const values = parseInput(merged);
      const [row] = await sequelize.query<ShippingMethodRow>(
        `UPDATE shipping_methods SET name = :name, price = :price, estimated_days_min = :estimatedDaysMin,
                estimated_days_max = :estimatedDaysMax, estimated_text = :estimatedText, free_over = :freeOver,
                active = :active, position = :position, updated_at = now()
          WHERE id = :id RETURNING ${COLUMNS}`,
        { replacements: { ...values, id }, type: QueryTypes.SELECT, transaction },
      );
      const method = toAdminJson(row!);
      const changes = changedFields(current, method, AUDITED_FIELDS);
      if (Object.keys(changes).length) {
        await recordAudit(transaction, {
          ...by,
          action: "update",
          entity: "shippingMethod",
          entityId: method._id,
          changes,
        });
      }
      return method;
    })
    .catch(nameTaken);
}

/** Deletes a delivery option; orders sent with it keep its name and price (their snapshot). */
export async function deleteShippingMethod(id: unknown, by: AuditBy = SYSTEM_CHANGE): Promise<void> {
  if (!isUuid(id)) throw notFound(SHIPPING_TEXT.notFound);
  const { sequelize } = getDb();
  await sequelize.transaction(async (transaction) => {
    const [row] = await sequelize.query<ShippingMethodRow>(
      `DELETE FROM shipping_methods WHERE id = :id RETURNING ${COLUMNS}`,
      { replacements: { id }, type: QueryTypes.SELECT, transaction },
    );
    if (!row) throw notFound(SHIPPING_TEXT.notFound);
    await recordAudit(transaction, {
      ...by,
      action: "delete",
      entity: "shippingMethod",
      entityId: row.id,
      changes: changedFields(toAdminJson(row), null, AUDITED_FIELDS),
    });
  });
}
