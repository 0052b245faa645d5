import { createHash, randomBytes } from "node:crypto";
import { QueryTypes, type Transaction } from "sequelize";
import { consumePasswordResetRequest } from "~/services/account-limits.server";
import { resetPasswordRequestSchema } from "~/lib/server/account-api.server";
import { forgotPasswordSchema } from "~/lib/shared/account-schemas";
import { getConfig } from "~/lib/server/config.server";
import { getDb } from "~/models/db.server";
import { badRequest } from "~/lib/server/errors.server";
import { afterAnswer, settleWorkAfterAnswers } from "~/lib/server/after-answer.server";
import { hashPassword } from "~/lib/server/password.server";
import { fieldErrorsOf } from "~/lib/shared/schemas";
import { enqueueMail } from "./mail/outbox.server";
import { passwordChangedMail, passwordResetMail } from "./mail/templates.server";

/**
 * Password reset by mail. The link carries a random token; the
 * database keeps only its SHA-256, valid for 30 minutes and for one use. The
 * answer to a request is the same whether or not the address has an account,
 * and the limits count unknown addresses too, so nothing tells them apart.
 */

/** How long a password reset link (its token) is valid; the reset cookie lives no longer. */
export const RESET_TOKEN_MINUTES = 30;
const RESET_PATH = "/auth/reset-password";

export const PASSWORD_RESET_TEXT = {
  requested: `If an account exists for that email address, we have sent it a link to reset the password. The link is valid for ${RESET_TOKEN_MINUTES} minutes.`,
  invalidLink: "This password reset link is invalid or has expired. Please ask for a new one.",
  done: "Your password has been changed. Please sign in with your new password.",
} as const;

function hashToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

function resetLinkFor(token: string): string {
  return `${getConfig().appUrl}${RESET_PATH}?${new URLSearchParams({ token })}`;
}

/**
 * Mails a reset link when `input.email` belongs to an account; answers the
 * same either way. Throws 400 for a malformed address, 429 beyond the limits.
 *
 * Resolves as soon as the request is accepted: looking the address up and
 * writing its token and mail happen after the answer, so that an address with
 * an account is not told apart by a slower answer (the transaction took a few
 * milliseconds more than the lookup that found nothing; see
 * docs/decisions/0011-forgot-password-answers-before-the-work.md).
 */
export async function requestPasswordReset(input: unknown, clientKey: string): Promise<void> {
  const parsed = forgotPasswordSchema.safeParse(input);
  if (!parsed.success) throw badRequest("Please check the highlighted fields", fieldErrorsOf(parsed.error));
  const { email } = parsed.data;
  await consumePasswordResetRequest(clientKey, email);

  afterAnswer("A password reset link", () => mailResetLinkIfAccount(email));
}

/** Resolves once every reset request answered so far has written its token and mail (or failed). */
export async function settlePasswordResetRequests(): Promise<void> {
  await settleWorkAfterAnswers();
}

async function mailResetLinkIfAccount(email: string): Promise<void> {
  const { sequelize, models } = getDb();
  const user = await models.User.findOne({
    where: { email },
    attributes: ["id", "email"],
    raw: true,
  });
  if (!user) return;
  await sequelize.transaction(async (transaction) => {
    const link = await issuePasswordLink(user.id, RESET_TOKEN_MINUTES, transaction);
    await enqueueMail(
      {
        kind: "password-reset",
        to: user.email,
        ...passwordResetMail({ link, validMinutes: RESET_TOKEN_MINUTES }),
      },
      transaction,
    );
  });
}

/**
 * A single-use link to the set-a-password page for `userId`, valid `minutes`, written in `transaction`:
 * a forgotten password's (30 minutes) and a staff invitation's (72 hours) alike.
 */
export async function issuePasswordLink(
  userId: string,
  minutes: number,
  transaction: Transaction,
): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  await getDb().sequelize.query(
    `INSERT INTO password_reset_tokens (user_id, token_hash, expires_at)
     VALUES (:userId, :tokenHash, now() + make_interval(mins => :minutes))`,
    { replacements: { userId, tokenHash: hashToken(token), minutes }, transaction },
  );
  return resetLinkFor(token);
}

/** Whether `token` can still reset a password (unused, not expired); uses nothing up. */
export async function isPasswordResetTokenValid(token: unknown): Promise<boolean> {
  if (typeof token !== "string" || token.length === 0 || token.length > 200) return false;
  const rows = await getDb().sequelize.query(
    `SELECT 1 FROM password_reset_tokens
      WHERE token_hash = :tokenHash AND used_at IS NULL AND expires_at > now()`,
    { replacements: { tokenHash: hashToken(token) }, type: QueryTypes.SELECT },
  );
  return rows.length > 0;
}

/**
 * Sets a new password with a reset token, in one transaction: the token is
 * used up (of two requests with one token, exactly one wins), every other
 * reset link of the user dies, and every session of the user ends. Throws 400
 * for invalid fields and for an invalid, expired or used token.
 */
export async function resetPassword(input: unknown): Promise<{ email: string }> {
  const parsed = resetPasswordRequestSchema.safeParse(input);
  if (!parsed.success) {
    const errors = fieldErrorsOf(parsed.error);
    if (errors.token) throw badRequest(PASSWORD_RESET_TEXT.invalidLink, errors);
    throw badRequest("Please check the highlighted fields", errors);
  }
  // scrypt is slow on purpose: hash before the transaction takes its locks.
  const passwordHash = await hashPassword(parsed.data.password);
  const { sequelize } = getDb();
  return sequelize.transaction(async (transaction) => {
    const [used] = await sequelize.query<{ userId: string }>(
      `UPDATE password_reset_tokens SET used_at = now()
        WHERE token_hash = :tokenHash AND used_at IS NULL AND expires_at > now()
        RETURNING user_id AS "userId"`,
      { replacements: { tokenHash: hashToken(parsed.data.token) }, type: QueryTypes.SELECT, transaction },
    );
    if (!used)
      throw badRequest(PASSWORD_RESET_TEXT.invalidLink, { token: [PASSWORD_RESET_TEXT.invalidLink] });
    const [user] = await sequelize.query<{ email: string }>(
      `UPDATE users SET password_hash = :passwordHash, updated_at = now() WHERE id = :userId RETURNING email`,
      { replacements: { passwordHash, userId: used.userId }, type: QueryTypes.SELECT, transaction },
    );
    await afterPasswordChange(used.userId, null, transaction);
    return { email: user!.email };
  });
}

/**
 * What follows every password change, in its transaction: every session of
 * `userId` except `keepSessionId` ends, every reset link still open dies, and
 * the owner gets a "your password was changed" mail. Returns how many
 * sessions ended.
 */
export async function afterPasswordChange(
  userId: string,
  keepSessionId: string | null,
  transaction: Transaction,
): Promise<number> {
  const { sequelize } = getDb();
  await sequelize.query(
    `UPDATE password_reset_tokens SET used_at = now() WHERE user_id = :userId AND used_at IS NULL`,
    { replacements: { userId }, transaction },
  );
  const ended = await sequelize.query(
    `DELETE FROM sessions WHERE user_id = :userId AND (CAST(:keep AS uuid) IS NULL OR id <> CAST(:keep AS uuid))
     RETURNING id`,
    { replacements: { userId, keep: keepSessionId }, type: QueryTypes.SELECT, transaction },
  );
  const [user] = await sequelize.query<{ email: string }>(`SELECT email FROM users WHERE id = :userId`, {
    replacements: { userId },
    type: QueryTypes.SELECT,
    transaction,
  });
  if (user) {
    const forgotLink = `${getConfig().appUrl}/auth/forgot-password`;
    await enqueueMail(
      {
        kind: "password-changed",
        to: user.email,
        ...passwordChangedMail({ forgotLink }),
      },
      transaction,
    );
  }
  return ended.length;
}
