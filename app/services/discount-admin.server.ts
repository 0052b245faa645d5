import { QueryTypes, type Transaction } from "sequelize";
import { getDb } from "~/models/db.server";
import { badRequest, isUniqueViolation, notFound } from "~/lib/server/errors.server";
import { discountInputSchema, type DiscountCodeJson } from "~/lib/shared/delivery-schemas";
import { centsToDecimal } from "~/lib/shared/money";
import { fieldErrorsOf } from "~/lib/shared/schemas";
import { isUuid } from "~/lib/shared/uuid";
import { changedFields, recordAudit, SYSTEM_CHANGE, type AuditBy } from "./audit.server";
import { COLUMNS, DISCOUNT_TEXT, toJson, type DiscountCodeRow } from "./discounts.server";

/** The admin's discount codes: the list, and each change on record (audit). Checking and counting a code is discounts.server.ts's. */

export async function listDiscountCodes(): Promise<DiscountCodeJson[]> {
  const rows = await getDb().sequelize.query<DiscountCodeRow>(
    `SELECT ${COLUMNS} FROM discount_codes d ORDER BY lower(d.code)`,
    { type: QueryTypes.SELECT },
  );
  return rows.map(toJson);
}

export async function getDiscountCode(id: unknown): Promise<DiscountCodeJson> {
  if (!isUuid(id)) throw notFound(DISCOUNT_TEXT.notFound);
  const [row] = await getDb().sequelize.query<DiscountCodeRow>(
    `SELECT ${COLUMNS} FROM discount_codes d WHERE d.id = :id`,
    { replacements: { id }, type: QueryTypes.SELECT },
  );
  if (!row) throw notFound(DISCOUNT_TEXT.notFound);
  return toJson(row);
}

function parseInput(input: unknown) {
  const parsed = discountInputSchema.safeParse(input);
  if (!parsed.success) {
    const errors = fieldErrorsOf(parsed.error);
    throw badRequest(Object.values(errors).flat()[0] ?? "Invalid discount code", errors);
  }
  const data = parsed.data;
  return {
    code: data.code,
    type: data.type,
    value: centsToDecimal(data.value!),
    minSubtotal: centsToDecimal(data.minSubtotal ?? 0),
    startsAt: data.startsAt ?? null,
    endsAt: data.endsAt ?? null,
    usageLimit: data.usageLimit ?? null,
    perCustomerLimit: data.perCustomerLimit ?? null,
    categories: data.categories,
    brands: data.brands,
    active: data.active,
  };
}

function codeTaken(error: unknown): never {
  if (isUniqueViolation(error))
    throw badRequest(DISCOUNT_TEXT.codeTaken, { code: [DISCOUNT_TEXT.codeTaken] });
  throw error;
}

/** Sequelize expands an empty array to nothing, which is not SQL: an empty list is sent as one blank to drop. */
const listReplacement = (values: string[]) => (values.length ? values : [""]);

/** What a code's audit entry compares: what the admin sets (not its uses). */
const AUDITED_FIELDS = [
  "code",
  "type",
  "value",
  "minSubtotal",
  "startsAt",
  "endsAt",
  "usageLimit",
  "perCustomerLimit",
  "categories",
  "brands",
  "active",
] as const;

async function readCode(
  id: string,
  transaction: Transaction,
  lock = false,
): Promise<DiscountCodeJson | null> {
  const [row] = await getDb().sequelize.query<DiscountCodeRow>(
    `SELECT ${COLUMNS} FROM discount_codes d WHERE d.id = :id${lock ? " FOR UPDATE OF d" : ""}`,
    { replacements: { id }, type: QueryTypes.SELECT, transaction },
  );
  return row ? toJson(row) : null;
}

/** Adds a code (on record in the audit log). 400 with the field's message for bad input or a code in use. */
export async function createDiscountCode(
  input: unknown,
  by: AuditBy = SYSTEM_CHANGE,
): Promise<DiscountCodeJson> {
  const values = parseInput(input);
  const { sequelize } = getDb();
  return sequelize
    .transaction(async (transaction) => {
      const [row] = await sequelize.query<{ id: string }>(
        `INSERT INTO discount_codes (code, type, value, min_subtotal, starts_at, ends_at, usage_limit,
                                     per_customer_limit, categories, brands, active)
         VALUES (:code, :type, :value, :minSubtotal, :startsAt, :endsAt, :usageLimit, :perCustomerLimit,
                 array_remove(ARRAY[:categories]::text[], ''), array_remove(ARRAY[:brands]::text[], ''), :active)
         RETURNING id`,
        {
          replacements: {
            ...values,
            categories: listReplacement(values.categories),
            brands: listReplacement(values.brands),
          },
          type: QueryTypes.SELECT,
          transaction,
        },
      );
      const code = (await readCode(row!.id, transaction))!;
      await recordAudit(transaction, {
        ...by,
        action: "create",
        entity: "discountCode",
        entityId: code._id,
        changes: changedFields(null, code, AUDITED_FIELDS),
      });
      return code;
    })
    .catch(codeTaken);
}

/** Changes a code: the fields sent replace the stored ones. Orders keep the code text they were made with. */
export async function updateDiscountCode(
  id: unknown,
  input: unknown,
  by: AuditBy = SYSTEM_CHANGE,
): Promise<DiscountCodeJson> {
  if (!isUuid(id)) throw notFound(DISCOUNT_TEXT.notFound);
  const patch = typeof input === "object" && input !== null ? (input as Record<string, unknown>) : {};
  const { sequelize } = getDb();
  return sequelize
    .transaction(async (transaction) => {
      // Locked, so that the audit entry's "before" is what this update replaced (a capture counting a
      // use takes the same lock, after its stock's, and waits for this short transaction).
      const current = await readCode(id, transaction, true);
      if (!current) throw notFound(DISCOUNT_TEXT.notFound);
      const { _id: _ignored, uses: _uses, ...stored } = current;
      const values = parseInput({ ...stored, ...patch });
      await sequelize.query(
        `UPDATE discount_codes SET code = :code, type = :type, value = :value, min_subtotal = :minSubtotal,
                starts_at = :startsAt, ends_at = :endsAt, usage_limit = :usageLimit,
                per_customer_limit = :perCustomerLimit,
                categories = array_remove(ARRAY[:categories]::text[], ''),
                brands = array_remove(ARRAY[:brands]::text[], ''), active = :active, updated_at = now()
          WHERE id = :id`,
        {
          replacements: {
            ...values,
            categories: listReplacement(values.categories),
            brands: listReplacement(values.brands),
            id,
          },
          transaction,
        },
      );
      const code = (await readCode(id, transaction))!;
      const changes = changedFields(current, code, AUDITED_FIELDS);
      if (Object.keys(changes).length) {
        await recordAudit(transaction, {
          ...by,
          action: "update",
          entity: "discountCode",
          entityId: code._id,
          changes,
        });
      }
      return code;
    })
    .catch(codeTaken);
}

/**
 * Deletes a code. Orders made with it keep its text and their amounts; an
 * unpaid order that carries it is refused at capture ("no longer valid") and
 * can be paid without it.
 */
export async function deleteDiscountCode(id: unknown, by: AuditBy = SYSTEM_CHANGE): Promise<void> {
  if (!isUuid(id)) throw notFound(DISCOUNT_TEXT.notFound);
  const { sequelize } = getDb();
  await sequelize.transaction(async (transaction) => {
    const current = await readCode(id, transaction, true);
    if (!current) throw notFound(DISCOUNT_TEXT.notFound);
    await sequelize.query(`DELETE FROM discount_codes WHERE id = :id`, { replacements: { id }, transaction });
    await recordAudit(transaction, {
      ...by,
      action: "delete",
      entity: "discountCode",
      entityId: current._id,
      changes: changedFields(current, null, AUDITED_FIELDS),
    });
  });
}
