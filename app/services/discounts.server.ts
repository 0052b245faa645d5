import { QueryTypes, type Transaction } from "sequelize";
import { getDb } from "~/models/db.server";
import { badRequest, isUniqueViolation, notFound } from "~/lib/server/errors.server";
import {
  DISCOUNT_CODE_PATTERN,
  discountInputSchema,
  type DiscountCodeJson,
  type DiscountType,
} from "~/lib/shared/delivery-schemas";
import { centsToDecimal, decimalToNumber, formatPrice, toCents } from "~/lib/shared/money";
import type { DiscountRule, OrderMoney } from "~/lib/shared/order-money";
import { fieldErrorsOf } from "~/lib/shared/schemas";
import { isUuid } from "~/lib/shared/uuid";
import { changedFields, recordAudit, SYSTEM_CHANGE, type AuditBy } from "./audit.server";

/**
 * Discount codes (API.md "Delivery, discount codes, returns"). What a code
 * takes off is the money module's (lib/shared/order-money.ts); this module
 * says whether a code may be used at all, keeps the admin's list, and counts
 * the uses.
 *
 * A use is counted when the order's stock is reserved at capture
 * (checkout/order-store.server.ts reserveStock), under the code's row lock,
 * after the products' and variants' locks (the house's lock order: products →
 * product_variants → discount_codes), so concurrent captures take turns on the
 * code and never count more uses than its limits. A use goes back with the
 * stock (a released or rejected order). Checking a code on the cart and at
 * order creation is a courtesy that the capture repeats.
 */

export const DISCOUNT_TEXT = {
  notFound: "Discount code not found",
  codeTaken: "A discount code with this name exists already (codes do not differ by case)",
  created: "Discount code added",
  updated: "Discount code updated",
  deleted: "Discount code deleted",
  applied: "Discount code applied",
  removed: "Discount code removed",
} as const;

export interface DiscountCodeRow {
  id: string;
  code: string;
  type: DiscountType;
  value: string;
  minSubtotal: string;
  startsAt: Date | null;
  endsAt: Date | null;
  usageLimit: number | null;
  perCustomerLimit: number | null;
  categories: string[];
  brands: string[];
  active: boolean;
  uses: number;
}

const COLUMNS = `d.id, d.code, d.type, d.value, d.min_subtotal AS "minSubtotal", d.starts_at AS "startsAt",
  d.ends_at AS "endsAt", d.usage_limit AS "usageLimit", d.per_customer_limit AS "perCustomerLimit",
  d.categories, d.brands, d.active,
  (SELECT count(*) FROM discount_code_uses u WHERE u.discount_code_id = d.id)::int AS uses`;

function toJson(row: DiscountCodeRow): DiscountCodeJson {
  return {
    _id: row.id,
    code: row.code,
    type: row.type,
    value: decimalToNumber(row.value),
    minSubtotal: decimalToNumber(row.minSubtotal),
    startsAt: row.startsAt ? new Date(row.startsAt).toISOString() : null,
    endsAt: row.endsAt ? new Date(row.endsAt).toISOString() : null,
    usageLimit: row.usageLimit,
    perCustomerLimit: row.perCustomerLimit,
    categories: row.categories,
    brands: row.brands,
    active: row.active,
    uses: row.uses,
  };
}

/** The code as the money module applies it. A percent's value in cents is its basis points (10.00 → 1000). */
export function discountRuleOf(row: DiscountCodeRow): DiscountRule {
  const limits = {
    minSubtotalCents: toCents(row.minSubtotal),
    categories: row.categories,
    brands: row.brands,
  };
  return row.type === "percent"
    ? { type: "percent", basisPoints: toCents(row.value), ...limits }
    : { type: "fixed", cents: toCents(row.value), ...limits };
}

// --- Checking a code --------------------------------------------------------------

/** "November 24, 2026": the day a code starts or ends, as the shopper reads it. */
function dayOf(date: Date): string {
  return new Date(date).toLocaleDateString("en-US", {
    year: "numeric",
    month: "long",
    day: "numeric",
    timeZone: "UTC",
  });
}

const discountRefusals = {
  unknown: (code: string) => `The discount code "${code}" does not exist.`,
  notYetValid: (code: string, startsAt: Date) => `The discount code "${code}" starts on ${dayOf(startsAt)}.`,
  expired: (code: string, endsAt: Date) => `The discount code "${code}" ended on ${dayOf(endsAt)}.`,
  usedUp: (code: string) => `The discount code "${code}" has been used up.`,
  perCustomer: (code: string) =>
    `You have already used the discount code "${code}" the allowed number of times.`,
  minimum: (shortByCents: number) =>
    `Spend ${formatPrice(centsToDecimal(shortByCents))} more to use this code.`,
  noEligibleLines: (code: string) => `The discount code "${code}" applies to none of the items in your cart.`,
} as const;

/** Reads a code by its text, regardless of case (null when there is none or the text cannot be a code). */
export async function findDiscountCode(
  code: string,
  transaction?: Transaction,
): Promise<DiscountCodeRow | null> {
  if (!DISCOUNT_CODE_PATTERN.test(code)) return null;
  const [row] = await getDb().sequelize.query<DiscountCodeRow>(
    `SELECT ${COLUMNS} FROM discount_codes d WHERE lower(d.code) = lower(:code)`,
    { replacements: { code }, type: QueryTypes.SELECT, transaction },
  );
  return row ?? null;
}

async function usesBy(codeId: string, userId: string, transaction?: Transaction): Promise<number> {
  const [row] = await getDb().sequelize.query<{ uses: number }>(
    `SELECT count(*)::int AS uses FROM discount_code_uses WHERE discount_code_id = :codeId AND user_id = :userId`,
    { replacements: { codeId, userId }, type: QueryTypes.SELECT, transaction },
  );
  return row?.uses ?? 0;
}

/**
 * Why `row` (found by `code`) cannot be used by this shopper now, or null:
 * unknown (or switched off), not yet valid, ended, used up, used the allowed
 * number of times by this shopper. What it would take off is judged apart
 * (discountMoneyRefusal), once the money is computed.
 */
export async function discountCodeRefusal(
  code: string,
  row: DiscountCodeRow | null,
  userId: string,
  now = new Date(),
  transaction?: Transaction,
): Promise<string | null> {
  if (!row || !row.active) return discountRefusals.unknown(code);
  if (row.startsAt && new Date(row.startsAt) > now)
    return discountRefusals.notYetValid(row.code, row.startsAt);
  if (row.endsAt && new Date(row.endsAt) <= now) return discountRefusals.expired(row.code, row.endsAt);
  if (row.usageLimit !== null && row.uses >= row.usageLimit) return discountRefusals.usedUp(row.code);
  if (row.perCustomerLimit !== null && (await usesBy(row.id, userId, transaction)) >= row.perCustomerLimit) {
    return discountRefusals.perCustomer(row.code);
  }
  return null;
}

/** A code that takes nothing off this cart: below its minimum, or none of the items is of its kind. */
export function discountMoneyRefusal(code: string, money: OrderMoney): string | null {
  const miss = money.discountMiss;
  if (!miss) return null;
  return miss.reason === "minimum"
    ? discountRefusals.minimum(miss.shortByCents)
    : discountRefusals.noEligibleLines(code);
}

// --- Counting uses at capture -------------------------------------------------------

export interface DiscountRunOut {
  code: string;
  message: string;
}

/**
 * Inside the capture's transaction, after the stock's locks: counts the
 * order's use of its code under the code's row lock, or returns why it can
 * no longer be used (the code was deleted or switched off, ended, or reached
 * its limit, in total or for this shopper, while the order waited). Counting
 * twice for one order is a no-op (one use per order).
 */
export async function reserveDiscountUse(
  orderId: string,
  transaction: Transaction,
): Promise<DiscountRunOut | null> {
  const { sequelize } = getDb();
  const [order] = await sequelize.query<{ code: string | null; codeId: string | null; userId: string }>(
    `SELECT discount_code AS code, discount_code_id AS "codeId", user_id AS "userId" FROM orders WHERE id = :orderId`,
    { replacements: { orderId }, type: QueryTypes.SELECT, transaction },
  );
  if (!order?.code) return null;
  const noLonger = { code: order.code, message: `The discount code "${order.code}" is no longer valid.` };
  if (!order.codeId) return noLonger;
  const [locked] = await sequelize.query<{
    active: boolean;
    endsAt: Date | null;
    usageLimit: number | null;
    perCustomerLimit: number | null;
  }>(
    `SELECT active, ends_at AS "endsAt", usage_limit AS "usageLimit", per_customer_limit AS "perCustomerLimit"
       FROM discount_codes WHERE id = :codeId FOR UPDATE`,
    { replacements: { codeId: order.codeId }, type: QueryTypes.SELECT, transaction },
  );
  if (!locked?.active) return noLonger;
  if (locked.endsAt && new Date(locked.endsAt) <= new Date()) {
    return { code: order.code, message: discountRefusals.expired(order.code, locked.endsAt) };
  }
  // Read after the lock is held: every use committed by an earlier holder is counted.
  const [counts] = await sequelize.query<{ total: number; mine: number; own: number }>(
    `SELECT count(*)::int AS total, count(*) FILTER (WHERE user_id = :userId)::int AS mine,
            count(*) FILTER (WHERE order_id = :orderId)::int AS own
       FROM discount_code_uses WHERE discount_code_id = :codeId`,
    {
      replacements: { codeId: order.codeId, userId: order.userId, orderId },
      type: QueryTypes.SELECT,
      transaction,
    },
  );
  if (counts!.own > 0) return null;
  if (locked.usageLimit !== null && counts!.total >= locked.usageLimit) {
    return { code: order.code, message: discountRefusals.usedUp(order.code) };
  }
  if (locked.perCustomerLimit !== null && counts!.mine >= locked.perCustomerLimit) {
    return { code: order.code, message: discountRefusals.perCustomer(order.code) };
  }
  await sequelize.query(
    `INSERT INTO discount_code_uses (discount_code_id, order_id, user_id) VALUES (:codeId, :orderId, :userId)`,
    { replacements: { codeId: order.codeId, orderId, userId: order.userId }, transaction },
  );
  return null;
}

/** Inside the transaction that gives an order's stock back: its use of a code goes back too. */
export async function releaseDiscountUse(orderId: string, transaction: Transaction): Promise<void> {
  await getDb().sequelize.query(`DELETE FROM discount_code_uses WHERE order_id = :orderId`, {
    replacements: { orderId },
    transaction,
  });
}

// --- The admin's list ---------------------------------------------------------------

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
