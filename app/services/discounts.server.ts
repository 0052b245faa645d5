import { QueryTypes, type Transaction } from "sequelize";
import { getDb } from "~/models/db.server";
import {
  DISCOUNT_CODE_PATTERN,
  type DiscountCodeJson,
  type DiscountType,
} from "~/lib/shared/delivery-schemas";
import { centsToDecimal, decimalToNumber, formatPrice, toCents } from "~/lib/shared/money";
import type { DiscountRule, OrderMoney } from "~/lib/shared/order-money";

/**
 * Discount codes (API.md "Delivery, discount codes, returns"). What a code
 * takes off is the money module's (lib/shared/order-money.ts); this module
 * says whether a code may be used at all and counts the uses (the admin's
 * list and changes are in discount-admin.server.ts).
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

export const COLUMNS = `d.id, d.code, d.type, d.value, d.min_subtotal AS "minSubtotal", d.starts_at AS "startsAt",
  d.ends_at AS "endsAt", d.usage_limit AS "usageLimit", d.per_customer_limit AS "perCustomerLimit",
  d.categories, d.brands, d.active,
  (SELECT count(*) FROM discount_code_uses u WHERE u.discount_code_id = d.id)::int AS uses`;

export function toJson(row: DiscountCodeRow): DiscountCodeJson {
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

/**
 * Whose uses count toward a code's `perCustomerLimit`: a shopper by their account; a guest by the email of
 * their order, which counts that email's guest orders and the uses of the account with that email too, so
 * that checking out as a guest does not renew a shopper's allowance (docs/decisions/0044-guest-checkout.md).
 */
export type DiscountCustomer = string | { guestEmail: string };

/** The condition on `discount_code_uses` of the customer's uses, and its replacements. */
function customerUses(customer: DiscountCustomer) {
  return typeof customer === "string"
    ? { where: "user_id = :customerId", replacements: { customerId: customer } }
    : {
        where:
          "(guest_email = :customerEmail OR user_id = (SELECT id FROM users WHERE email = :customerEmail))",
        replacements: { customerEmail: customer.guestEmail },
      };
}

async function usesBy(
  codeId: string,
  customer: DiscountCustomer,
  transaction?: Transaction,
): Promise<number> {
  const uses = customerUses(customer);
  const [row] = await getDb().sequelize.query<{ uses: number }>(
    `SELECT count(*)::int AS uses FROM discount_code_uses WHERE discount_code_id = :codeId AND ${uses.where}`,
    { replacements: { codeId, ...uses.replacements }, type: QueryTypes.SELECT, transaction },
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
  /** Whose uses count toward `perCustomerLimit`; null for a visitor's cart before checkout gives an email. */
  customer: DiscountCustomer | null,
  now = new Date(),
  transaction?: Transaction,
): Promise<string | null> {
  if (!row || !row.active) return discountRefusals.unknown(code);
  if (row.startsAt && new Date(row.startsAt) > now)
    return discountRefusals.notYetValid(row.code, row.startsAt);
  if (row.endsAt && new Date(row.endsAt) <= now) return discountRefusals.expired(row.code, row.endsAt);
  if (row.usageLimit !== null && row.uses >= row.usageLimit) return discountRefusals.usedUp(row.code);
  if (
    row.perCustomerLimit !== null &&
    customer !== null &&
    (await usesBy(row.id, customer, transaction)) >= row.perCustomerLimit
  ) {
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
  const [order] = await sequelize.query<{
    code: string | null;
    codeId: string | null;
    userId: string | null;
    guestEmail: string | null;
  }>(
    `SELECT discount_code AS code, discount_code_id AS "codeId", user_id AS "userId", guest_email AS "guestEmail"
       FROM orders WHERE id = :orderId`,
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
  const uses = customerUses(order.userId ?? { guestEmail: order.guestEmail! });
  // Read after the lock is held: every use committed by an earlier holder is counted.
  const [counts] = await sequelize.query<{ total: number; mine: number; own: number }>(
    `SELECT count(*)::int AS total, count(*) FILTER (WHERE ${uses.where})::int AS mine,
            count(*) FILTER (WHERE order_id = :orderId)::int AS own
       FROM discount_code_uses WHERE discount_code_id = :codeId`,
    {
      replacements: { codeId: order.codeId, orderId, ...uses.replacements },
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
    `INSERT INTO discount_code_uses (discount_code_id, order_id, user_id, guest_email)
     VALUES (:codeId, :orderId, :userId, :guestEmail)`,
    {
      replacements: {
        codeId: order.codeId,
        orderId,
        userId: order.userId,
        guestEmail: order.userId ? null : order.guestEmail,
      },
      transaction,
    },
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
