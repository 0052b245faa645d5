import { QueryTypes, type Transaction } from "sequelize";
import { RateLimiterRes } from "rate-limiter-flexible";
import { getDb } from "~/models/db.server";
import { prepared } from "~/models/prepared-statements.server";
import {
  type AppError,
  badRequest,
  conflict,
  forbidden,
  notFound,
  tooManyRequests,
} from "~/lib/server/errors.server";
import { openSecret, sealSecret } from "~/lib/server/secret-box.server";
import { generateTotpSecret, matchTotpStep, qrCodeSvg, totpUrl } from "~/lib/server/totp.server";
import { processSingleton } from "~/lib/server/process-singleton.server";
import { isUuid } from "~/lib/shared/uuid";
import { isBackOffice } from "~/lib/shared/permissions";
import { CODE_MAX_LENGTH, isTotpCode, normaliseCode, TWO_FACTOR_TEXT } from "~/lib/shared/two-factor";
import { startTwoFactorSchema } from "~/lib/shared/account-schemas";
import { fieldErrorsOf } from "~/lib/shared/schemas";
import { checkCurrentPassword } from "./account.server";
import { recordAudit, type AuditBy } from "./audit.server";
import { SHOP_NAME } from "./mail/templates.server";
import { enqueueTwoFactorMail } from "./mail/two-factor-mails.server";
import { claimBackupCode, replaceBackupCodes } from "./two-factor-backup-codes.server";
import { postgresLimiter } from "./rate-limit.server";
import type { SessionUser } from "./users.server";

/**
 * Two-factor sign-in with an authenticator app (TOTP) and single-use backup codes
 * (docs/decisions/0034-two-factor-sign-in.md). A person starts enrolment (a new secret, kept
 * encrypted and unused), confirms it with a first code (it is on, ten backup codes are handed out
 * once), and turns it off with a code. An admin may reset a colleague's (on the audit log). Every
 * change mails the account's owner (app/services/mail/two-factor-mails.server.ts).
 *
 * A code is accepted once: the step of the last accepted TOTP code is remembered, and only a later
 * step passes, claimed by one conditional UPDATE; a backup code is claimed the same way. Every code
 * checked for a person takes a point from their own allowance first (WRONG_CODE_LIMIT), so guesses
 * spread over many sign-ins, or made with a stolen session, stay bounded.
 */

const SECRET_PURPOSE = "totp-secret";

/** Codes checked for one person, across sign-ins and devices; a right code gives its point back. */
export const WRONG_CODE_LIMIT = { points: 10, duration: 15 * 60 } as const;

const codeLimiter = () =>
  processSingleton("two-factor-code-limiter", () => postgresLimiter("two_factor_user", WRONG_CODE_LIMIT));

interface CredentialRow {
  secretEncrypted: string;
  enabledAt: Date | null;
  lastUsedStep: string | null;
}

export interface TwoFactorStatus {
  enabled: boolean;
  enabledAt: string | null;
  /** An enrolment is started and awaits its first code. */
  pending: boolean;
  backupCodesLeft: number;
}

export interface Enrolment {
  secret: string;
  otpauthUrl: string;
  qrSvg: string;
}

async function credentialOf(userId: string, transaction?: Transaction): Promise<CredentialRow | null> {
  const rows = await getDb().sequelize.query<CredentialRow>(
    `SELECT secret_encrypted AS "secretEncrypted", enabled_at AS "enabledAt", last_used_step AS "lastUsedStep"
       FROM two_factor_credentials WHERE user_id = $1 ${transaction ? "FOR UPDATE" : ""}`,
    { bind: [userId], type: QueryTypes.SELECT, transaction },
  );
  return rows[0] ?? null;
}

// Prepared: check-auth, every sign-in and, with TWO_FACTOR=required, every back-office request ask it.
const ENABLED_SQL = prepared(
  `SELECT true AS "on" FROM two_factor_credentials WHERE user_id = $1 AND enabled_at IS NOT NULL`,
);

export async function isTwoFactorEnabled(userId: string): Promise<boolean> {
  const rows = await getDb().sequelize.query<{ on: boolean }>(ENABLED_SQL, {
    bind: [userId],
    type: QueryTypes.SELECT,
  });
  return rows.length > 0;
}

export async function getTwoFactorStatus(userId: string): Promise<TwoFactorStatus> {
  const rows = await getDb().sequelize.query<{ enabledAt: Date | null; backupCodesLeft: number }>(
    `SELECT c.enabled_at AS "enabledAt",
            (SELECT count(*)::int FROM two_factor_backup_codes b WHERE b.user_id = c.user_id AND b.used_at IS NULL)
              AS "backupCodesLeft"
       FROM two_factor_credentials c WHERE c.user_id = $1`,
    { bind: [userId], type: QueryTypes.SELECT },
  );
  const row = rows[0];
  if (!row) return { enabled: false, enabledAt: null, pending: false, backupCodesLeft: 0 };
  return {
    enabled: row.enabledAt !== null,
    enabledAt: row.enabledAt ? new Date(row.enabledAt).toISOString() : null,
    pending: row.enabledAt === null,
    backupCodesLeft: row.enabledAt ? row.backupCodesLeft : 0,
  };
}

function enrolmentOf(user: SessionUser, secret: string): Promise<Enrolment> {
  const otpauthUrl = totpUrl(secret, user.email, SHOP_NAME);
  return qrCodeSvg(otpauthUrl).then((qrSvg) => ({ secret, otpauthUrl, qrSvg }));
}

/**
 * Starts (or starts again) enrolment with the person's current password (`{ password }`): a new
 * secret, unused until confirmed. 400 without the password or with a wrong one (counted as the
 * password change counts them: 429 beyond the limit); 409 when two-factor sign-in is already on
 * (turn it off first: a second secret must not replace the first unseen).
 */
export async function startEnrolment(user: SessionUser, input: unknown): Promise<Enrolment> {
  const parsed = startTwoFactorSchema.safeParse(input);
  if (!parsed.success) throw badRequest(TWO_FACTOR_TEXT.passwordRequired, fieldErrorsOf(parsed.error));
  const { attempt } = await checkCurrentPassword(user.id, parsed.data.password, "password");
  await attempt.succeeded();
  const secret = generateTotpSecret();
  const [rows] = await getDb().sequelize.query(
    `INSERT INTO two_factor_credentials (user_id, secret_encrypted) VALUES ($1, $2)
     ON CONFLICT (user_id) DO UPDATE SET secret_encrypted = EXCLUDED.secret_encrypted, last_used_step = NULL,
       created_at = now(), updated_at = now()
       WHERE two_factor_credentials.enabled_at IS NULL
     RETURNING user_id`,
    { bind: [user.id, sealSecret(secret, SECRET_PURPOSE)] },
  );
  if ((rows as unknown[]).length === 0) throw conflict(TWO_FACTOR_TEXT.alreadyOn);
  return enrolmentOf(user, secret);
}

/** The enrolment awaiting its first code (the page shows its QR code until then), or null. */
export async function pendingEnrolment(user: SessionUser): Promise<Enrolment | null> {
  const row = await credentialOf(user.id);
  if (!row || row.enabledAt) return null;
  const secret = openSecret(row.secretEncrypted, SECRET_PURPOSE);
  return secret ? enrolmentOf(user, secret) : null;
}

/** Ends an enrolment that was started and not confirmed (nothing changes once it is on). */
export async function cancelEnrolment(userId: string): Promise<void> {
  await getDb().sequelize.query(
    `DELETE FROM two_factor_credentials WHERE user_id = $1 AND enabled_at IS NULL`,
    {
      bind: [userId],
    },
  );
}

/**
 * Takes one point of `userId`'s code allowance before a code is looked at (parallel guesses
 * cannot overrun it); 429 with Retry-After when it is spent. `succeeded` gives it back.
 */
async function takeCodeAttempt(userId: string): Promise<{ succeeded(): Promise<void> }> {
  try {
    await codeLimiter().consume(userId, 1);
  } catch (error) {
    if (!(error instanceof RateLimiterRes)) throw error;
    const seconds = Math.max(1, Math.ceil(error.msBeforeNext / 1000));
    const minutes = Math.ceil(seconds / 60);
    throw tooManyRequests(
      `Too many wrong codes. Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
      seconds,
    );
  }
  return {
    async succeeded() {
      await codeLimiter().reward(userId, 1);
    },
  };
}

export type CodeVerdict = "accepted" | "wrong" | "replayed";

/**
 * Checks `code` for a person whose two-factor sign-in is on, and uses it up when it is right:
 * a TOTP code claims its step (only a step later than the last one used passes), a backup code
 * claims its row. Each claim is one conditional UPDATE, so of two parallel uses of one code
 * exactly one is accepted.
 */
async function claimCode(userId: string, input: string, atMs: number): Promise<CodeVerdict> {
  const code = normaliseCode(input);
  const { sequelize } = getDb();
  if (isTotpCode(code)) {
    const row = await credentialOf(userId);
    const secret = row?.enabledAt ? openSecret(row.secretEncrypted, SECRET_PURPOSE) : null;
    const step = secret ? matchTotpStep(secret, code, atMs) : null;
    if (step === null) return "wrong";
    const [claimed] = await sequelize.query(
      `UPDATE two_factor_credentials SET last_used_step = $2, updated_at = now()
        WHERE user_id = $1 AND enabled_at IS NOT NULL AND (last_used_step IS NULL OR last_used_step < $2)
        RETURNING user_id`,
      { bind: [userId, step] },
    );
    return (claimed as unknown[]).length > 0 ? "accepted" : "replayed";
  }
  return (await claimBackupCode(userId, code)) ? "accepted" : "wrong";
}

/** A code for `userId` with their allowance: the verdict (a wrong or replayed code keeps its point). */
export async function verifySecondFactor(
  userId: string,
  code: string,
  atMs = Date.now(),
): Promise<CodeVerdict> {
  const attempt = await takeCodeAttempt(userId);
  const verdict = await claimCode(userId, code, atMs);
  if (verdict === "accepted") await attempt.succeeded();
  return verdict;
}

function refusalOf(verdict: Exclude<CodeVerdict, "accepted">): AppError {
  const message = verdict === "replayed" ? TWO_FACTOR_TEXT.replayedCode : TWO_FACTOR_TEXT.wrongCode;
  return badRequest(message, { code: [message] });
}

function requireCodeText(code: unknown): string {
  if (typeof code !== "string" || normaliseCode(code) === "" || code.length > CODE_MAX_LENGTH) {
    throw badRequest(TWO_FACTOR_TEXT.codeRequired, { code: [TWO_FACTOR_TEXT.codeRequired] });
  }
  return code;
}

async function auditTwoFactor(
  transaction: Transaction,
  subject: Pick<SessionUser, "id" | "role">,
  by: AuditBy,
  on: [boolean, boolean],
) {
  // Shoppers' own choices are theirs; the back office's accounts are the shop's, on record.
  if (!isBackOffice(subject) && by.actor.id === subject.id) return;
  await recordAudit(transaction, {
    ...by,
    action: on[1] ? "create" : "delete",
    entity: "twoFactor",
    entityId: subject.id,
    changes: { twoFactor: [on[0] ? "on" : "off", on[1] ? "on" : "off"] },
  });
}

/**
 * Confirms the started enrolment with a first code: two-factor sign-in is on, that code's step is
 * used, and ten new backup codes are returned (the only time they are shown; stored as hashes).
 */
export async function confirmEnrolment(
  user: SessionUser,
  codeInput: unknown,
  by: AuditBy,
  atMs = Date.now(),
): Promise<{ backupCodes: string[] }> {
  const code = normaliseCode(requireCodeText(codeInput));
  const row = await credentialOf(user.id);
  if (row?.enabledAt) throw conflict(TWO_FACTOR_TEXT.alreadyOn);
  const secret = row ? openSecret(row.secretEncrypted, SECRET_PURPOSE) : null;
  if (!row || !secret) throw conflict(TWO_FACTOR_TEXT.notStarted);
  const attempt = await takeCodeAttempt(user.id);
  const step = isTotpCode(code) ? matchTotpStep(secret, code, atMs) : null;
  if (step === null) throw refusalOf("wrong");
  await attempt.succeeded();
  const { sequelize } = getDb();
  const backupCodes = await sequelize.transaction(async (transaction) => {
    // The same secret that was checked, still unconfirmed: a restarted enrolment in between wins.
    const [turnedOn] = await sequelize.query(
      `UPDATE two_factor_credentials SET enabled_at = now(), last_used_step = $3, updated_at = now()
        WHERE user_id = $1 AND secret_encrypted = $2 AND enabled_at IS NULL RETURNING user_id`,
      { bind: [user.id, row.secretEncrypted, step], transaction },
    );
    if ((turnedOn as unknown[]).length === 0) throw conflict(TWO_FACTOR_TEXT.notStarted);
    const codes = await replaceBackupCodes(transaction, user.id);
    await auditTwoFactor(transaction, user, by, [false, true]);
    await enqueueTwoFactorMail(transaction, user.email, "on");
    return codes;
  });
  return { backupCodes };
}

/**
 * Ten new backup codes for a person whose two-factor sign-in is on, with a current code or an unused
 * backup code: the old ones stop working. The new ones are returned, the only time they are shown.
 */
export async function regenerateBackupCodes(
  user: SessionUser,
  codeInput: unknown,
  by: AuditBy,
): Promise<{ backupCodes: string[] }> {
  const code = requireCodeText(codeInput);
  if (!(await isTwoFactorEnabled(user.id))) throw conflict(TWO_FACTOR_TEXT.notOn);
  const verdict = await verifySecondFactor(user.id, code);
  if (verdict !== "accepted") throw refusalOf(verdict);
  const backupCodes = await getDb().sequelize.transaction(async (transaction) => {
    const codes = await replaceBackupCodes(transaction, user.id);
    if (isBackOffice(user)) {
      await recordAudit(transaction, {
        ...by,
        action: "update",
        entity: "twoFactor",
        entityId: user.id,
        changes: { backupCodes: ["replaced", "new"] },
      });
    }
    return codes;
  });
  return { backupCodes };
}

async function removeTwoFactor(transaction: Transaction, userId: string): Promise<boolean> {
  const { sequelize } = getDb();
  const [removed] = await sequelize.query(
    `DELETE FROM two_factor_credentials WHERE user_id = $1 RETURNING enabled_at AS "enabledAt"`,
    { bind: [userId], transaction },
  );
  await sequelize.query(`DELETE FROM two_factor_backup_codes WHERE user_id = $1`, {
    bind: [userId],
    transaction,
  });
  await sequelize.query(`DELETE FROM two_factor_challenges WHERE user_id = $1`, {
    bind: [userId],
    transaction,
  });
  return (removed as { enabledAt: Date | null }[]).some((row) => row.enabledAt !== null);
}

/**
 * Asks for the second factor before something only the person may do (deleting the account): nothing
 * when two-factor sign-in is off, otherwise a right code (400 on `code` without one, 429 beyond the limit).
 */
export async function requireSecondFactorIfOn(userId: string, codeInput: unknown): Promise<void> {
  if (!(await isTwoFactorEnabled(userId))) return;
  const verdict = await verifySecondFactor(userId, requireCodeText(codeInput));
  if (verdict !== "accepted") throw refusalOf(verdict);
}

/** Turns two-factor sign-in off with a current code or an unused backup code. */
export async function disableTwoFactor(user: SessionUser, codeInput: unknown, by: AuditBy): Promise<void> {
  const code = requireCodeText(codeInput);
  if (!(await isTwoFactorEnabled(user.id))) throw conflict(TWO_FACTOR_TEXT.notOn);
  const verdict = await verifySecondFactor(user.id, code);
  if (verdict !== "accepted") throw refusalOf(verdict);
  await getDb().sequelize.transaction(async (transaction) => {
    if (!(await removeTwoFactor(transaction, user.id))) return;
    await auditTwoFactor(transaction, user, by, [true, false]);
    await enqueueTwoFactorMail(transaction, user.email, "off");
  });
}

/**
 * Who resets: an admin, a staff member (with `staff`: the route checks it), or the server's own
 * operator (the reset-two-factor script), who may reset anybody's, shoppers' included.
 */
export type TwoFactorResetter = "admin" | "staff" | "server";

/**
 * Someone resets another person's two-factor sign-in (a lost phone): it is off, their backup codes
 * and open sign-in challenges are gone, and the reset is on the audit log. The back office resets
 * only the back office's: a shopper's id answers 404, as an unknown one does (a shopper's account is
 * theirs alone, and the answer tells no prober who has it on). 403 for one's own (that takes a code)
 * and for an admin's unless an admin (or the server) resets it; 409 when it was not on.
 */
export async function resetTwoFactor(
  userId: string,
  by: AuditBy,
  resetter: TwoFactorResetter,
): Promise<void> {
  if (!isUuid(userId)) throw notFound("User not found");
  if (by.actor.id === userId) throw forbidden(TWO_FACTOR_TEXT.resetSelf);
  const { sequelize, models } = getDb();
  await sequelize.transaction(async (transaction) => {
    const subject = await models.User.findByPk(userId, {
      attributes: ["id", "role", "email"],
      transaction,
      lock: transaction.LOCK.UPDATE,
      raw: true,
    });
    if (!subject || (!isBackOffice(subject) && resetter !== "server")) throw notFound("User not found");
    if (subject.role === "admin" && resetter === "staff") throw forbidden(TWO_FACTOR_TEXT.resetAdminOnly);
    if (!(await removeTwoFactor(transaction, userId))) throw conflict(TWO_FACTOR_TEXT.resetNotOn);
    await auditTwoFactor(transaction, subject, by, [true, false]);
    await enqueueTwoFactorMail(transaction, subject.email, "reset");
  });
}
