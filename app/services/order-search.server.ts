import { likeContaining } from "~/lib/server/sql-like.server";
import { ORDER_SEARCH_MAX } from "~/lib/shared/order-options";
import { QueryTypes } from "sequelize";
import { getDb } from "~/models/db.server";
import { AppError, badRequest, type FieldErrors } from "~/lib/server/errors.server";
import { getConfig } from "~/lib/server/config.server";
import { shopDayEndSql, shopDayStartSql } from "~/lib/server/shop-day.server";
import { dayProblem } from "~/lib/shared/dates";
import { isUuid } from "~/lib/shared/uuid";
import {
  ORDER_STATUSES,
  PAYMENT_STATUSES,
  type OrderStatus,
  type PaymentStatus,
} from "~/models/index.server";
import { paginationOf, type Pagination, type Paging, type PagingLimits } from "~/lib/shared/paging";
import { ADMIN_PAGING } from "./admin-catalog.server";
import { queryOrders, type OrderJson } from "./orders.server";

/**
 * The admin's order search: the filters of a query string (the API's and the
 * page's), their SQL, and the list a page at a time. The CSV export reads the
 * same search (order-export.server.ts).
 */

export const ORDERS_PAGE_SIZE = 20;
export const ORDERS_PAGING: PagingLimits = { ...ADMIN_PAGING, defaultLimit: ORDERS_PAGE_SIZE };

/** A status filter from a query string: one of the order statuses, or none. */
export function parseStatusFilter(
  value: string | null,
  options: { lenient?: boolean } = {},
): OrderStatus | null {
  if (value === null || value === "" || value === "all") return null;
  if ((ORDER_STATUSES as readonly string[]).includes(value)) return value as OrderStatus;
  if (options.lenient) return null;
  const message = `status must be one of: ${ORDER_STATUSES.join(", ")}`;
  throw badRequest(message, { status: [message] });
}

/** A payment-status filter from a query string (lenient: anything else means all). */
export function parsePaymentFilter(value: string | null): PaymentStatus | null {
  return value && (PAYMENT_STATUSES as readonly string[]).includes(value) ? (value as PaymentStatus) : null;
}

/** What the admin's order list is narrowed to: each one optional, all of them combined. */
export interface OrderSearch {
  /** An order id, an order number (its first 8 characters), or part of the customer's email or name. */
  q?: string | null;
  status?: OrderStatus | null;
  paymentStatus?: PaymentStatus | null;
  /** Calendar days (YYYY-MM-DD), both inclusive, of the order's creation. */
  from?: string | null;
  to?: string | null;
}

/**
 * The search of a query string (`q`, `status`, `paymentStatus` or the page's
 * `payment`, `from`, `to`) and the problems with it, by field. The API answers
 * the problems with a 400; the page shows them. With `lenient`, an unknown
 * status or payment status means "all", as the page's filters always did.
 */
export function parseOrderSearch(
  params: URLSearchParams,
  options: { lenient?: boolean } = {},
): { search: OrderSearch; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const search: OrderSearch = {};
  const q = (params.get("q") ?? "").trim();
  if (q.length > ORDER_SEARCH_MAX) errors.q = [`q must be at most ${ORDER_SEARCH_MAX} characters`];
  else if (q) search.q = q;

  try {
    search.status = parseStatusFilter(params.get("status"), options);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    Object.assign(errors, error.fieldErrors);
  }
  const payment = params.get("paymentStatus") ?? params.get("payment");
  search.paymentStatus = parsePaymentFilter(payment);
  if (!options.lenient && payment && payment !== "all" && !search.paymentStatus) {
    errors.paymentStatus = [`paymentStatus must be one of: ${PAYMENT_STATUSES.join(", ")}`];
  }

  for (const name of ["from", "to"] as const) {
    const value = (params.get(name) ?? "").trim();
    if (!value) continue;
    const problem = dayProblem(name, value);
    if (problem) errors[name] = [problem];
    else search[name] = value;
  }
  if (search.from && search.to && search.from > search.to) {
    errors.to = ["to must be the same day as from or later"];
  }
  return { search, errors };
}

/** The search as the API takes it: 400 naming every problem. */
export function parseOrderSearchStrictly(params: URLSearchParams): OrderSearch {
  const { search, errors } = parseOrderSearch(params);
  const messages = Object.values(errors).flat();
  if (messages.length) throw badRequest(messages[0]!, errors);
  return search;
}

/** The first 8 hex digits of an id, as shoppers are shown it (shortOrderNumber), with or without a leading #. */
const ORDER_NUMBER = /^#?([0-9a-f]{8})$/i;

/**
 * The search as SQL conditions on `orders o`. Each part is one an index
 * answers (docs/decisions/0017-order-search.md): an id by the primary key, an
 * order number as the range of ids it begins, the customer by the trigram
 * indexes on users (found first, then their orders by orders.user_id) and a
 * guest by the trigram index on orders.guest_email, the
 * dates, status and payment by the order's own indexes.
 */
export function searchConditions(search: OrderSearch): {
  conditions: string[];
  replacements: Record<string, unknown>;
} {
  const conditions: string[] = [];
  const replacements: Record<string, unknown> = {};
  if (search.q) {
    const q = search.q;
    if (isUuid(q)) {
      conditions.push("o.id = :qId");
      replacements.qId = q.toLowerCase();
    } else {
      const matches = [
        `o.user_id = ANY (ARRAY(SELECT id FROM users WHERE email ILIKE :qLike OR user_name ILIKE :qLike))`,
        // A guest's order by the email given at checkout (its own trigram index, migration 0044).
        "o.guest_email ILIKE :qLike",
      ];
      replacements.qLike = likeContaining(search.q.toLowerCase());
      const number = ORDER_NUMBER.exec(q);
      if (number) {
        const prefix = number[1]!.toLowerCase();
        matches.push("o.id BETWEEN :qIdLow AND :qIdHigh");
        replacements.qIdLow = `${prefix}-0000-0000-0000-000000000000`;
        replacements.qIdHigh = `${prefix}-ffff-ffff-ffff-ffffffffffff`;
      }
      conditions.push(matches.length > 1 ? `(${matches.join(" OR ")})` : matches[0]!);
    }
  }
  if (search.status) {
    conditions.push("o.order_status = :status");
    replacements.status = search.status;
  }
  if (search.paymentStatus) {
    conditions.push("o.payment_status = :paymentStatus");
    replacements.paymentStatus = search.paymentStatus;
  }
  // Days are the shop's days (SHOP_TIMEZONE), as on the dashboard.
  if (search.from || search.to) replacements.shopTimeZone = getConfig().shopTimeZone;
  if (search.from) {
    conditions.push(`o.order_date >= ${shopDayStartSql("fromDay", "shopTimeZone")}`);
    replacements.fromDay = search.from;
  }
  if (search.to) {
    conditions.push(`o.order_date < ${shopDayEndSql("toDay", "shopTimeZone")}`);
    replacements.toDay = search.to;
  }
  return { conditions, replacements };
}

/** Every order that matches the search, newest first, a page at a time. */
export async function listOrders(
  query: Paging & OrderSearch,
): Promise<{ orders: OrderJson[]; pagination: Pagination }> {
  const { conditions, replacements } = searchConditions(query);
  const where = conditions.length ? `WHERE ${conditions.join(" AND ")}` : "";
  const { sequelize } = getDb();
  const [counted, orders] = await Promise.all([
    sequelize.query<{ total: string }>(`SELECT count(*) AS total FROM orders o ${where}`, {
      replacements,
      type: QueryTypes.SELECT,
    }),
    queryOrders(where, replacements, query),
  ]);
  return { orders, pagination: paginationOf(query, Number(counted[0]?.total ?? 0)) };
}
