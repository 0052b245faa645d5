import type { z } from "zod";
import { QueryTypes } from "sequelize";
import { beginPasswordChangeAttempt, type PasswordChangeAttempt } from "~/services/account-limits.server";
import { changePasswordRequestSchema, changeUserNameRequestSchema } from "~/lib/server/account-api.server";
import { getDb } from "~/models/db.server";
import { badRequest, notFound } from "~/lib/server/errors.server";
import { hashPassword, verifyPassword } from "~/lib/server/password.server";
import { fieldErrorsOf } from "~/lib/shared/schemas";
import { afterPasswordChange } from "./password-reset.server";
import type { SessionUser } from "./users.server";

/**
 * Account settings, the same for shoppers and admins and for every
 * face: the account tab, the admin page and the JSON API call these. The
 * session that asks is kept; "other sessions" are every other row of the
 * user in `sessions` (other browsers, devices, API clients).
 */

export const ACCOUNT_TEXT = {
  userNameChanged: "Your user name has been changed",
  passwordChanged: "Your password has been changed. You were signed out everywhere else.",
  wrongCurrentPassword: "Current password is incorrect",
  signedOutOthers: "You were signed out of every other session",
} as const;

function invalid(error: z.core.$ZodError): never {
  throw badRequest("Please check the highlighted fields", fieldErrorsOf(error));
}

export async function changeUserName(userId: string, input: unknown): Promise<SessionUser> {
  const parsed = changeUserNameRequestSchema.safeParse(input);
  if (!parsed.success) invalid(parsed.error);
  const [user] = await getDb().sequelize.query<SessionUser>(
    `UPDATE users SET user_name = :userName, updated_at = now() WHERE id = :userId
     RETURNING id, user_name AS "userName", email, role`,
    { replacements: { userId, userName: parsed.data.userName }, type: QueryTypes.SELECT },
  );
  if (!user) throw notFound("User not found");
  return user;
}

/**
 * Checks that `password` is the person's current one, before something only they may do (a new password,
 * a new two-factor device): a stolen session alone cannot. Wrong answers count against the person's limit
 * (429 beyond it; the point is taken before the check, so parallel guesses cannot overrun it); a wrong
 * one answers 400 with the message on `field`. Returns the hash that matched, and the attempt to give
 * back once the change is made.
 */
export async function checkCurrentPassword(
  userId: string,
  password: string,
  field: string,
): Promise<{ checkedHash: string; attempt: PasswordChangeAttempt }> {
  const attempt = await beginPasswordChangeAttempt(userId);
  const user = await getDb().models.User.findByPk(userId, { attributes: ["passwordHash"], raw: true });
  if (!user) throw notFound("User not found");
  if (!(await verifyPassword(password, user.passwordHash))) {
    throw badRequest(ACCOUNT_TEXT.wrongCurrentPassword, { [field]: [ACCOUNT_TEXT.wrongCurrentPassword] });
  }
  return { checkedHash: user.passwordHash, attempt };
}

/**
 * Changes the password after checking the current one (wrong answers are
 * limited per user), then ends every other session and every open reset
 * link. Returns how many sessions ended.
 */
export async function changePassword(
  userId: string,
  currentSessionId: string | null,
  input: unknown,
): Promise<{ endedSessions: number }> {
  const parsed = changePasswordRequestSchema.safeParse(input);
  if (!parsed.success) invalid(parsed.error);
  const { checkedHash, attempt } = await checkCurrentPassword(
    userId,
    parsed.data.currentPassword,
    "currentPassword",
  );
  const { sequelize } = getDb();
  const passwordHash = await hashPassword(parsed.data.newPassword);
  const endedSessions = await sequelize.transaction(async (transaction) => {
    // Compare and set: only if the password is still the one just checked. Of
    // two changes racing with the same current password, one wins; the other
    // finds its "current" password outdated.
    const changed = await sequelize.query(
      `UPDATE users SET password_hash = :passwordHash, updated_at = now()
        WHERE id = :userId AND password_hash = :checkedHash
        RETURNING id`,
      {
        replacements: { userId, passwordHash, checkedHash },
        type: QueryTypes.SELECT,
        transaction,
      },
    );
    if (!changed.length) {
      throw badRequest(ACCOUNT_TEXT.wrongCurrentPassword, {
        currentPassword: [ACCOUNT_TEXT.wrongCurrentPassword],
      });
    }
    return afterPasswordChange(userId, currentSessionId, transaction);
  });
  await attempt.succeeded();
  return { endedSessions };
}

/** Ends every session of the user but `currentSessionId`; returns how many ended. */
export async function signOutOtherSessions(
  userId: string,
  currentSessionId: string | null,
): Promise<{ endedSessions: number }> {
  const ended = await getDb().sequelize.query(
    `DELETE FROM sessions WHERE user_id = :userId AND (CAST(:keep AS uuid) IS NULL OR id <> CAST(:keep AS uuid))
     RETURNING id`,
    { replacements: { userId, keep: currentSessionId }, type: QueryTypes.SELECT },
  );
  return { endedSessions: ended.length };
}

/** How many live sessions the user has besides `currentSessionId`. */
export async function countOtherSessions(userId: string, currentSessionId: string | null): Promise<number> {
  const [row] = await getDb().sequelize.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM sessions
      WHERE user_id = :userId AND expires_at > now()
        AND (CAST(:keep AS uuid) IS NULL OR id <> CAST(:keep AS uuid))`,
    { replacements: { userId, keep: currentSessionId }, type: QueryTypes.SELECT },
  );
  return row?.count ?? 0;
}
