import { getDb } from "~/models/db.server";
import { conflict, isUniqueViolation } from "~/lib/server/errors.server";
import { getDummyPasswordHash, hashPassword, verifyPassword } from "~/lib/server/password.server";
import type { RegisterInput } from "~/lib/shared/schemas";
import type { Role } from "~/models/index.server";
import { permissionsOf, type Permission } from "~/lib/shared/permissions";
import { recordAudit, SCRIPT_CHANGE, type AuditBy } from "./audit.server";

/**
 * The user as the session and the API show it: never the password hash. A
 * back-office person (admin or staff) also carries the permissions they hold
 * (an admin: every one); a shopper carries none, as the spec's user.
 */
export interface SessionUser {
  id: string;
  userName: string;
  email: string;
  role: Role;
  permissions?: Permission[];
}

const DUPLICATE_EMAIL_MESSAGE = "User Already exists with the same email! Please try again";

/**
 * The user of a live session, for `FROM ${LIVE_SESSION_USER}` with the session
 * id bound as $1 (no row when the session is unknown or expired), and the
 * columns of SessionUser. Shared by the session lookup (app/web/session.server.ts)
 * and the lookup that brings the cart along (getSessionUserAndCartView).
 */
export const LIVE_SESSION_USER = `sessions s JOIN users u ON u.id = s.user_id AND s.id = $1 AND s.expires_at > now()
  AND u.disabled_at IS NULL`;
export const SESSION_USER_COLUMNS = `u.id, u.user_name AS "userName", u.email, u.role, u.permissions`;

/** A row of SESSION_USER_COLUMNS. */
export interface SessionUserRow {
  id: string;
  userName: string;
  email: string;
  role: Role;
  permissions?: readonly string[] | null;
}

/** The SessionUser fields of a user row (or of a row that carries more, as the session and cart lookup). */
export function toSessionUser(row: SessionUserRow): SessionUser {
  const user: SessionUser = { id: row.id, userName: row.userName, email: row.email, role: row.role };
  if (row.role !== "user") user.permissions = permissionsOf(row);
  return user;
}

export async function registerUser(input: RegisterInput): Promise<SessionUser> {
  const { User } = getDb().models;
  const email = input.email.trim().toLowerCase();
  const existing = await User.findOne({ where: { email }, attributes: ["id"], raw: true });
  if (existing) throw conflict(DUPLICATE_EMAIL_MESSAGE);
  try {
    const user = await User.create({
      userName: input.userName.trim(),
      email,
      passwordHash: await hashPassword(input.password),
    });
    return toSessionUser(user.get({ plain: true }));
  } catch (error) {
    // Two registrations racing for one email: the unique index decides.
    if (isUniqueViolation(error)) throw conflict(DUPLICATE_EMAIL_MESSAGE);
    throw error;
  }
}

/**
 * The user whose email and password match, or null. Unknown emails are
 * checked against a dummy hash so that both failures take the same time.
 */
export async function verifyLogin(emailInput: string, password: string): Promise<SessionUser | null> {
  const { User } = getDb().models;
  const email = emailInput.trim().toLowerCase();
  const user = await User.findOne({
    where: { email },
    attributes: ["id", "userName", "email", "role", "permissions", "passwordHash", "disabledAt"],
    raw: true,
  });
  const valid = await verifyPassword(password, user?.passwordHash ?? (await getDummyPasswordHash()));
  // A disabled person is refused as a wrong password is: the answer tells a guesser nothing.
  return user && valid && !user.disabledAt ? toSessionUser(user) : null;
}

/**
 * Creates an admin, or promotes the existing user with that email; either is
 * on record in the audit log as `by`'s (the create-admin script's by default).
 */
export async function createOrPromoteAdmin(
  input: RegisterInput,
  by: AuditBy = SCRIPT_CHANGE,
): Promise<{
  user: SessionUser;
  action: "created" | "promoted" | "unchanged";
}> {
  const { sequelize, models } = getDb();
  const { User } = models;
  const email = input.email.trim().toLowerCase();
  // Hashed before the transaction: it takes a while, and a transaction holds its connection.
  const passwordHash = await hashPassword(input.password);
  return sequelize.transaction(async (transaction) => {
    const existing = await User.findOne({ where: { email }, transaction, lock: transaction.LOCK.UPDATE });
    if (existing) {
      if (existing.role === "admin")
        return { user: toSessionUser(existing.get({ plain: true })), action: "unchanged" as const };
      const before = existing.role;
      existing.role = "admin";
      await existing.save({ transaction });
      await recordAudit(transaction, {
        ...by,
        action: "promote",
        entity: "user",
        entityId: existing.id,
        changes: { role: [before, "admin"] },
      });
      return { user: toSessionUser(existing.get({ plain: true })), action: "promoted" as const };
    }
    const user = await User.create(
      { userName: input.userName.trim(), email, passwordHash, role: "admin" },
      { transaction },
    );
    await recordAudit(transaction, {
      ...by,
      action: "create",
      entity: "user",
      entityId: user.id,
      changes: { userName: [null, user.userName], email: [null, email], role: [null, "admin"] },
    });
    return { user: toSessionUser(user.get({ plain: true })), action: "created" as const };
  });
}
