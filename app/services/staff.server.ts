import { randomBytes } from "node:crypto";
import { QueryTypes, type Transaction } from "sequelize";
import { getDb } from "~/models/db.server";
import { badRequest, conflict, forbidden, isUniqueViolation, notFound } from "~/lib/server/errors.server";
import { hashPassword } from "~/lib/server/password.server";
import { permissionsOf, unheldBy, type Permission } from "~/lib/shared/permissions";
import { fieldErrorsOf } from "~/lib/shared/schemas";
import {
  INVITE_VALID_HOURS,
  inviteStaffSchema,
  updateStaffSchema,
  type StaffMemberView,
} from "~/lib/shared/staff-schemas";
import { isUuid } from "~/lib/shared/uuid";
import { recordAudit, type AuditBy } from "./audit.server";
import { enqueueMail } from "./mail/outbox.server";
import { staffInviteMail } from "./mail/staff-mails.server";
import { issuePasswordLink } from "./password-reset.server";
import { resetTwoFactor } from "./two-factor.server";
import type { SessionUser } from "./users.server";

/**
 * The shop's team (API.md "Staff, two-factor sign-in, API keys";
 * docs/decisions/0033-staff-permissions-and-api-keys.md). The rules, for the
 * staff page and `/api/admin/staff` alike:
 * - nobody grants (or takes away) a permission they do not hold, nor enables
 *   a disabled person who holds one, and nobody changes their own
 *   permissions or disables or removes themselves (403);
 * - only an admin disables or removes an admin;
 * - the last active admin stays (409): every change that could take one away
 *   first locks the active admins' rows, in id order, so two admins removing
 *   each other at once take turns and the second finds itself the last;
 * - disabling ends the person's sessions and revokes their API keys in the
 *   same transaction; the session and key lookups refuse a disabled person too;
 * - every change is on the audit log (entity `user`).
 */

export { INVITE_VALID_HOURS };

export const STAFF_TEXT = {
  invited: "Invitation sent",
  updated: "Staff member updated",
  removed: "Staff member removed",
  notFound: "Staff member not found",
  self: "You cannot change your own permissions, or disable or remove yourself",
  adminOnly: "Only an admin can disable or remove an admin",
  adminPermissions: "An admin holds every permission: an admin's permissions cannot be changed",
  lastAdmin: "The shop's last admin cannot be disabled or removed",
  duplicate: "An account with this email already exists",
  hasOrders: "This person has orders in the shop: disable them instead of removing them",
} as const;

interface StaffRow {
  id: string;
  userName: string;
  email: string;
  role: "admin" | "staff";
  permissions: string[];
  disabledAt: Date | null;
  pending: boolean;
  twoFactor: boolean;
  createdAt: Date;
}

function viewOf(row: StaffRow): StaffMemberView {
  return {
    _id: row.id,
    userName: row.userName,
    email: row.email,
    role: row.role,
    permissions: permissionsOf(row),
    disabled: row.disabledAt !== null,
    invitationPending: row.pending,
    twoFactorEnabled: row.twoFactor,
    createdAt: new Date(row.createdAt).toISOString(),
  };
}

const STAFF_COLUMNS = `u.id, u.user_name AS "userName", u.email, u.role, u.permissions, u.disabled_at AS "disabledAt",
  u.created_at AS "createdAt",
  EXISTS (SELECT 1 FROM password_reset_tokens t
           WHERE t.user_id = u.id AND t.used_at IS NULL AND t.expires_at > now()) AS pending,
  EXISTS (SELECT 1 FROM two_factor_credentials c
           WHERE c.user_id = u.id AND c.enabled_at IS NOT NULL) AS "twoFactor"`;

/** Everybody of the back office: admins first, then staff, by name. */
export async function listStaff(): Promise<StaffMemberView[]> {
  const rows = await getDb().sequelize.query<StaffRow>(
    `SELECT ${STAFF_COLUMNS} FROM users u WHERE u.role IN ('admin', 'staff')
      ORDER BY u.role = 'staff', lower(u.user_name), u.id`,
    { type: QueryTypes.SELECT },
  );
  return rows.map(viewOf);
}

async function staffMember(id: string, transaction: Transaction): Promise<StaffMemberView> {
  const [row] = await getDb().sequelize.query<StaffRow>(
    `SELECT ${STAFF_COLUMNS} FROM users u WHERE u.id = $1`,
    {
      bind: [id],
      type: QueryTypes.SELECT,
      transaction,
    },
  );
  return viewOf(row!);
}

function refuseUnheld(actor: SessionUser, permissions: readonly Permission[], verb: string): void {
  const lacking = unheldBy(actor, permissions);
  if (lacking.length)
    throw forbidden(`You cannot ${verb} a permission you do not hold: ${lacking.join(", ")}`);
}

/**
 * Invites a staff member: an account that cannot sign in until its owner
 * chooses a password through the mailed link (valid INVITE_VALID_HOURS).
 * 400 invalid fields, 403 a permission the inviter lacks, 409 a known email.
 */
export async function inviteStaff(actor: SessionUser, input: unknown, by: AuditBy): Promise<StaffMemberView> {
  const parsed = inviteStaffSchema.safeParse(input);
  if (!parsed.success) throw badRequest("Please check the highlighted fields", fieldErrorsOf(parsed.error));
  const { email, userName, permissions } = parsed.data;
  refuseUnheld(actor, permissions, "grant");
  // Nobody knows this password: the account opens only through the invitation's link.
  const passwordHash = await hashPassword(randomBytes(32).toString("base64url"));
  const { sequelize, models } = getDb();
  try {
    return await sequelize.transaction(async (transaction) => {
      const user = await models.User.create(
        { userName, email, passwordHash, role: "staff", permissions: [...permissions] },
        { transaction },
      );
      const link = await issuePasswordLink(user.id, INVITE_VALID_HOURS * 60, transaction);
      await enqueueMail(
        {
          kind: "staff-invite",
          to: email,
          ...staffInviteMail({
            userName,
            invitedBy: actor.userName,
            permissions,
            link,
            validHours: INVITE_VALID_HOURS,
          }),
        },
        transaction,
      );
      await recordAudit(transaction, {
        ...by,
        action: "create",
        entity: "user",
        entityId: user.id,
        changes: {
          userName: [null, userName],
          email: [null, email],
          role: [null, "staff"],
          permissions: [null, permissions],
        },
      });
      return staffMember(user.id, transaction);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(STAFF_TEXT.duplicate);
    throw error;
  }
}

interface LockedTarget {
  id: string;
  role: "admin" | "staff";
  permissions: string[];
  disabledAt: Date | null;
}

/**
 * Locks the active admins (in id order, always first: no two changes wait on
 * each other in opposite orders), then the back-office person `id`. 404 for
 * anybody else.
 */
async function lockTarget(
  id: string,
  transaction: Transaction,
): Promise<{ target: LockedTarget; activeAdmins: string[] }> {
  if (!isUuid(id)) throw notFound(STAFF_TEXT.notFound);
  const { sequelize } = getDb();
  const admins = await sequelize.query<{ id: string }>(
    `SELECT id FROM users WHERE role = 'admin' AND disabled_at IS NULL ORDER BY id FOR UPDATE`,
    { type: QueryTypes.SELECT, transaction },
  );
  const [target] = await sequelize.query<LockedTarget>(
    `SELECT id, role, permissions, disabled_at AS "disabledAt" FROM users
      WHERE id = $1 AND role IN ('admin', 'staff') FOR UPDATE`,
    { bind: [id], type: QueryTypes.SELECT, transaction },
  );
  if (!target) throw notFound(STAFF_TEXT.notFound);
  return { target, activeAdmins: admins.map((admin) => admin.id) };
}

/** Refuses taking away an admin: by a staff member (403), or the last active one (409). */
function guardAdminLoss(actor: SessionUser, target: LockedTarget, activeAdmins: string[]): void {
  if (target.role !== "admin") return;
  if (actor.role !== "admin") throw forbidden(STAFF_TEXT.adminOnly);
  if (activeAdmins.includes(target.id) && activeAdmins.length <= 1) throw conflict(STAFF_TEXT.lastAdmin);
}

/** Ends every session and revokes every API key of `userId`; answers how many keys were revoked. */
async function cutAccess(userId: string, transaction: Transaction): Promise<number> {
  const { sequelize } = getDb();
  await sequelize.query(`DELETE FROM sessions WHERE user_id = $1`, { bind: [userId], transaction });
  const revoked = await sequelize.query(
    `UPDATE api_keys SET revoked_at = now() WHERE created_by = $1 AND revoked_at IS NULL RETURNING id`,
    { bind: [userId], type: QueryTypes.SELECT, transaction },
  );
  return revoked.length;
}

/**
 * Changes a back-office person's permissions and/or disabled state.
 * 400 invalid fields, 403 for oneself, a permission the actor lacks or an
 * admin changed by a staff member, 404 unknown, 409 the last admin.
 */
export async function updateStaff(
  actor: SessionUser,
  id: string,
  input: unknown,
  by: AuditBy,
): Promise<StaffMemberView> {
  const parsed = updateStaffSchema.safeParse(input);
  if (!parsed.success) throw badRequest("Please check the highlighted fields", fieldErrorsOf(parsed.error));
  const { permissions, disabled } = parsed.data;
  if (id === actor.id) throw forbidden(STAFF_TEXT.self);
  const { sequelize } = getDb();
  return sequelize.transaction(async (transaction) => {
    const { target, activeAdmins } = await lockTarget(id, transaction);
    const changes: Record<string, [unknown, unknown]> = {};
    const sets: string[] = [];
    const bind: unknown[] = [id];
    if (permissions !== undefined) {
      const before = permissionsOf(target);
      const changed = [
        ...permissions.filter((permission) => !before.includes(permission)),
        ...before.filter((permission) => !permissions.includes(permission)),
      ];
      if (changed.length && target.role === "admin") throw badRequest(STAFF_TEXT.adminPermissions);
      refuseUnheld(actor, changed, "grant or take away");
      if (changed.length) {
        bind.push(permissions);
        sets.push(`permissions = $${bind.length}::text[]`);
        changes.permissions = [before, permissions];
      }
    }
    const wasDisabled = target.disabledAt !== null;
    if (disabled !== undefined && disabled !== wasDisabled) {
      if (disabled) guardAdminLoss(actor, target, activeAdmins);
      else if (target.role === "admin" && actor.role !== "admin") throw forbidden(STAFF_TEXT.adminOnly);
      // Enabling hands the person's permissions back: as granting them would, it needs the enabler to hold them.
      else refuseUnheld(actor, permissionsOf(target), "enable a person with");
      sets.push(disabled ? "disabled_at = now()" : "disabled_at = NULL");
      changes.disabled = [wasDisabled, disabled];
    }
    if (sets.length) {
      await sequelize.query(`UPDATE users SET ${sets.join(", ")}, updated_at = now() WHERE id = $1`, {
        bind,
        transaction,
      });
      if (disabled === true && !wasDisabled) {
        const keys = await cutAccess(id, transaction);
        if (keys) changes.apiKeysRevoked = [0, keys];
      }
      await recordAudit(transaction, { ...by, action: "update", entity: "user", entityId: id, changes });
    }
    return staffMember(id, transaction);
  });
}

/**
 * Removes a back-office person's account (their sessions, keys and links go
 * with it). 403 for oneself or an admin removed by a staff member, 404
 * unknown, 409 the last admin.
 */
export async function removeStaff(actor: SessionUser, id: string, by: AuditBy): Promise<void> {
  if (id === actor.id) throw forbidden(STAFF_TEXT.self);
  const { sequelize } = getDb();
  await sequelize.transaction(async (transaction) => {
    const { target, activeAdmins } = await lockTarget(id, transaction);
    guardAdminLoss(actor, target, activeAdmins);
    // Orders keep their shopper (ON DELETE RESTRICT): a promoted shopper with orders is disabled instead.
    const [orders] = await sequelize.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM orders WHERE user_id = $1`,
      { bind: [id], type: QueryTypes.SELECT, transaction },
    );
    if (orders!.count > 0) throw conflict(STAFF_TEXT.hasOrders);
    const [removed] = await sequelize.query<{ email: string; userName: string }>(
      `DELETE FROM users WHERE id = $1 RETURNING email, user_name AS "userName"`,
      { bind: [id], type: QueryTypes.SELECT, transaction },
    );
    await recordAudit(transaction, {
      ...by,
      action: "delete",
      entity: "user",
      entityId: id,
      changes: {
        userName: [removed!.userName, null],
        email: [removed!.email, null],
        role: [target.role, null],
        permissions: [permissionsOf(target), null],
      },
    });
  });
}

/** Resets a colleague's two-factor sign-in (a lost phone): only an admin resets an admin's; a shopper's is 404. */
export function resetStaffTwoFactor(actor: SessionUser, id: string, by: AuditBy): Promise<void> {
  return resetTwoFactor(id, by, actor.role === "admin" ? "admin" : "staff");
}
