import { QueryTypes, type Transaction } from "sequelize";
import { z } from "zod";
import { badRequest, conflict, notFound } from "~/lib/server/errors.server";
import { verifyPassword } from "~/lib/server/password.server";
import { likeContaining } from "~/lib/server/sql-like.server";
import { fieldErrorsOf } from "~/lib/shared/schemas";
import { paginationOf, type Pagination, type Paging } from "~/lib/shared/paging";
import { isUuid } from "~/lib/shared/uuid";
import { getDb } from "~/models/db.server";
import { consumeDataExport } from "../account-limits.server";
import { recordAudit, type AuditBy } from "../audit.server";
import { requireSecondFactorIfOn } from "../two-factor.server";
import {
  ORDER_IN_PROGRESS,
  PERSONAL_DATA,
  RETURN_OPEN,
  entryOf,
  whereOf,
  type PersonKeys,
  type PersonalDataTable,
} from "./personal-data.server";

/**
 * A person's data: the download (export) and the erasure, both walking the one list of
 * personal-data.server.ts (API.md, "Privacy: export and erasure"; docs/decisions/0053).
 */

export const PRIVACY_TEXT = {
  inProgress: "You have orders in progress",
  passwordRequired: "Enter your password",
  wrongPassword: "The password is not right",
  notFound: "Customer not found",
  deleted: "Your account has been deleted",
  erased: "The customer's data has been erased",
} as const;

/** The back office's list of shoppers: its page size and bounds. */
export const CUSTOMER_PAGING = { defaultLimit: 25, maxLimit: 100, maxPage: 10_000 };

/** The body of `POST /api/account/delete` and of the account page's form. */
export const deleteAccountSchema = z.object({
  password: z
    .string({ message: PRIVACY_TEXT.passwordRequired })
    .min(1, PRIVACY_TEXT.passwordRequired)
    .max(200, PRIVACY_TEXT.wrongPassword)
    .meta({ description: "The account's current password" }),
  code: z
    .string()
    .max(40)
    .optional()
    .meta({ description: "A two-factor code or backup code (when two-factor sign-in is on)" }),
});

export type DataExport = Record<string, unknown> & { exportedAt: string; account: Record<string, unknown> };

/**
 * The person's keys; null when there is no such account or it is already erased. `provenEmail` is the
 * back office acting on a request by mail, which reaches shoppers only (the customers area): a staff
 * account is the shop's to close (the staff page), not a customer's to erase.
 */
async function personOf(
  userId: string,
  provenEmail: boolean,
  transaction?: Transaction,
): Promise<PersonKeys | null> {
  if (!isUuid(userId)) return null;
  const { sequelize } = getDb();
  const [user] = await sequelize.query<{ email: string }>(
    `SELECT email FROM users WHERE id = :userId AND erased_at IS NULL ${provenEmail ? "AND role = 'user'" : ""}
      ${transaction ? "FOR UPDATE" : ""}`,
    { replacements: { userId }, type: QueryTypes.SELECT, transaction },
  );
  if (!user) return null;
  const email = user.email.toLowerCase();
  const keys = { userId, email, provenEmail, patterns: [] as string[] };
  keys.patterns = (await distinctiveValues(keys, transaction)).map(likeContaining);
  return keys;
}

function bindOf(keys: PersonKeys) {
  // An empty ARRAY[] has no type: a pattern nothing contains stands in.
  return { ...keys, patterns: keys.patterns.length ? keys.patterns : ["\u0000"] };
}

/**
 * Values that name this person and nobody else (the email, streets, phone numbers): what finds their
 * traces in free text. A name is not one (two people share it): it is only scrubbed from rows found.
 */
async function distinctiveValues(keys: PersonKeys, transaction?: Transaction): Promise<string[]> {
  const values = await personalValues(keys, transaction, ["address", "phone"]);
  return [keys.email, ...values].filter((value) => value.length >= 6);
}

/** The person's values as they appear in the tables: what a scrub replaces. */
async function personalValues(
  keys: PersonKeys,
  transaction: Transaction | undefined,
  fields = ["address", "city", "phone", "notes"],
): Promise<string[]> {
  const { sequelize } = getDb();
  const rows = await sequelize.query<{ value: string | null }>(
    `SELECT DISTINCT v.value FROM (
       ${fields.map((field) => `SELECT a.${field} AS value FROM addresses a WHERE ${whereOf(entryOf("addresses"), "a")}`).join(" UNION ALL ")}
       UNION ALL
       ${fields.map((field) => `SELECT o.address_info->>'${field}' FROM orders o WHERE ${whereOf(entryOf("orders"), "o")}`).join(" UNION ALL ")}
     ) v WHERE v.value IS NOT NULL AND length(trim(v.value)) >= 3`,
    { replacements: bindOf(keys), type: QueryTypes.SELECT, transaction },
  );
  return rows.map((row) => row.value!.trim());
}

async function exportOf(keys: PersonKeys, transaction?: Transaction): Promise<DataExport> {
  const { sequelize } = getDb();
  const file: Record<string, unknown> = { exportedAt: new Date().toISOString() };
  for (const entry of PERSONAL_DATA) {
    if (!entry.export) continue;
    const { section, fields, orderBy, single } = entry.export;
    const rows = await sequelize.query<Record<string, unknown>>(
      `SELECT ${Object.entries(fields)
        .map(([name, sql]) => `${sql} AS "${name}"`)
        .join(", ")}
         FROM ${entry.table} t WHERE ${whereOf(entry, "t")} ORDER BY ${orderBy ?? "1"}`,
      { replacements: bindOf(keys), type: QueryTypes.SELECT, transaction },
    );
    file[section] = single ? (rows[0] ?? null) : rows;
  }
  return file as DataExport;
}

/** The caller's own file: everything the shop holds about them (at most 5 an hour). */
export async function exportOwnData(userId: string): Promise<DataExport> {
  await consumeDataExport(userId);
  const keys = await personOf(userId, false);
  if (!keys) throw notFound(PRIVACY_TEXT.notFound);
  return exportOf(keys);
}

/** The same file for an admin answering a request that came by mail, on the audit log. */
export async function exportCustomerData(userId: string, by: AuditBy): Promise<DataExport> {
  return getDb().sequelize.transaction(async (transaction) => {
    const keys = await personOf(userId, true, transaction);
    if (!keys) throw notFound(PRIVACY_TEXT.notFound);
    const file = await exportOf(keys, transaction);
    await recordAudit(transaction, {
      ...by,
      action: "export",
      entity: "user",
      entityId: userId,
      changes: {},
    });
    return file;
  });
}

/** The attachment's file name: the shop's, the date, and no personal value. */
export function exportFileName(file: DataExport): string {
  return `my-data-${file.exportedAt.slice(0, 10)}.json`;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Replaces each value (and its JSON-escaped form) by "[erased]", in any case. */
function scrubText(text: string, values: readonly string[]): string {
  let result = text;
  for (const value of values) {
    for (const form of new Set([value, JSON.stringify(value).slice(1, -1)])) {
      result = result.replace(new RegExp(escapeRegExp(form), "gi"), "[erased]");
    }
  }
  return result;
}

async function eraseEntry(
  entry: PersonalDataTable,
  keys: PersonKeys,
  values: string[],
  transaction: Transaction,
) {
  const { sequelize } = getDb();
  const replacements = bindOf(keys);
  for (const step of entry.erase) {
    const where = `${whereOf(entry, "t")}${"where" in step && step.where ? ` AND ${step.where("t")}` : ""}`;
    if ("delete" in step) {
      await sequelize.query(`DELETE FROM ${entry.table} t WHERE ${where}`, { replacements, transaction });
    } else if ("set" in step) {
      const sets = Object.entries(step.set).map(([column, sql]) => `${column} = ${sql}`);
      await sequelize.query(`UPDATE ${entry.table} t SET ${sets.join(", ")} WHERE ${where}`, {
        replacements,
        transaction,
      });
    } else {
      const columns = Object.keys(step.scrub);
      const rows = await sequelize.query<Record<string, string | null>>(
        `SELECT t.${step.key} AS key, ${columns.map((column) => `t.${column}::text AS "${column}"`).join(", ")}
           FROM ${entry.table} t WHERE ${where} FOR UPDATE`,
        { replacements, type: QueryTypes.SELECT, transaction },
      );
      for (const row of rows) {
        const changed = columns.filter(
          (column) => row[column] !== null && scrubText(row[column]!, values) !== row[column],
        );
        if (!changed.length) continue;
        await sequelize.query(
          `UPDATE ${entry.table} SET ${changed.map((column) => `${column} = CAST(:${column} AS ${step.scrub[column]})`).join(", ")}
            WHERE ${step.key} = :key`,
          {
            replacements: {
              key: row.key,
              ...Object.fromEntries(changed.map((column) => [column, scrubText(row[column]!, values)])),
            },
            transaction,
          },
        );
      }
    }
  }
}

/**
 * Erases the account in one transaction (API.md): refused with 409 while an order or a return is in
 * progress; otherwise every entry of the list is erased, last first, and `customer.deleted` is emitted.
 * The person's orders, returns and carts are locked first, in the checkout's order, so a checkout
 * running beside it either commits first (and the erasure sees its order in progress) or finds its
 * order closed (cancelled) and its session gone.
 */
async function erase(userId: string, provenEmail: boolean, by: AuditBy | null): Promise<void> {
  const { sequelize } = getDb();
  await sequelize.transaction(async (transaction) => {
    await sequelize.query(`SET LOCAL shop.erasure = 'on'`, { transaction });
    const keys = await personOf(userId, provenEmail, transaction);
    if (!keys) throw notFound(PRIVACY_TEXT.notFound);
    const replacements = bindOf(keys);
    // The checkout's lock order (order-store.server.ts): orders, their returns, then the carts.
    for (const table of ["orders", "order_returns", "carts"]) {
      await sequelize.query(
        `SELECT t.id FROM ${table} t WHERE ${whereOf(entryOf(table), "t")} ORDER BY t.id FOR UPDATE`,
        { replacements, transaction },
      );
    }
    const [busy] = await sequelize.query<{ busy: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM orders o WHERE ${whereOf(entryOf("orders"), "o")} AND ${ORDER_IN_PROGRESS("o")})
           OR EXISTS (SELECT 1 FROM order_returns r WHERE ${whereOf(entryOf("order_returns"), "r")} AND ${RETURN_OPEN("r")})
           AS busy`,
      { replacements, type: QueryTypes.SELECT, transaction },
    );
    if (busy?.busy) throw conflict(PRIVACY_TEXT.inProgress);
    const values = [keys.email, ...(await personalValues(keys, transaction))];
    const [name] = await sequelize.query<{ userName: string }>(
      `SELECT user_name AS "userName" FROM users WHERE id = :userId`,
      { replacements, type: QueryTypes.SELECT, transaction },
    );
    if (name && name.userName.trim().length >= 3) values.push(name.userName.trim());
    for (const entry of [...PERSONAL_DATA].reverse()) await eraseEntry(entry, keys, values, transaction);
    await sequelize.query(
      `SELECT webhook_emit('customer.deleted', 'customer:' || :userId, jsonb_build_object('id', CAST(:userId AS text)))`,
      { replacements, transaction },
    );
    if (by)
      await recordAudit(transaction, {
        ...by,
        action: "erase",
        entity: "user",
        entityId: userId,
        changes: {},
      });
  });
}

/** The person deletes their own account: with their password, and their code when two-factor is on. */
export async function deleteOwnAccount(userId: string, input: unknown): Promise<void> {
  const parsed = deleteAccountSchema.safeParse(input);
  if (!parsed.success) {
    const errors = fieldErrorsOf(parsed.error);
    throw badRequest(Object.values(errors).flat()[0] ?? PRIVACY_TEXT.passwordRequired, errors);
  }
  const user = await getDb().models.User.findByPk(userId, { attributes: ["passwordHash"], raw: true });
  if (!user) throw notFound(PRIVACY_TEXT.notFound);
  if (!(await verifyPassword(parsed.data.password, user.passwordHash))) {
    throw badRequest(PRIVACY_TEXT.wrongPassword, { password: [PRIVACY_TEXT.wrongPassword] });
  }
  await requireSecondFactorIfOn(userId, parsed.data.code);
  await erase(userId, false, null);
}

/** An admin erases a shopper on their request (it came by mail: the shop knows the mailbox). */
export async function eraseCustomer(userId: string, by: AuditBy): Promise<void> {
  if (!isUuid(userId)) throw notFound(PRIVACY_TEXT.notFound);
  await erase(userId, true, by);
}

export interface CustomerRow {
  _id: string;
  userName: string;
  email: string;
  createdAt: string;
  orders: number;
}

/** Shoppers (not staff, not erased) whose name or email contains `q`, newest first, one page. */
export async function searchCustomers(
  q: string,
  paging: Paging,
): Promise<{ data: CustomerRow[]; pagination: Pagination }> {
  const { sequelize } = getDb();
  const term = q.trim();
  const where = `u.role = 'user' AND u.erased_at IS NULL
    ${term ? "AND (u.user_name ILIKE :like OR u.email ILIKE :like)" : ""}`;
  const replacements = {
    like: likeContaining(term),
    limit: paging.limit,
    offset: (paging.page - 1) * paging.limit,
  };
  const [rows, [count]] = await Promise.all([
    sequelize.query<CustomerRow & { createdAt: Date | string }>(
      `SELECT u.id AS "_id", u.user_name AS "userName", u.email, u.created_at AS "createdAt",
              (SELECT count(*)::int FROM orders o WHERE o.user_id = u.id) AS orders
         FROM users u WHERE ${where} ORDER BY u.created_at DESC, u.id LIMIT :limit OFFSET :offset`,
      { replacements, type: QueryTypes.SELECT },
    ),
    sequelize.query<{ n: number }>(`SELECT count(*)::int AS n FROM users u WHERE ${where}`, {
      replacements,
      type: QueryTypes.SELECT,
    }),
  ]);
  return {
    data: rows.map((row) => ({ ...row, createdAt: new Date(row.createdAt).toISOString() })),
    pagination: paginationOf(paging, count?.n ?? 0),
  };
}
