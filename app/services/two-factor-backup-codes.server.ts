import { createHash, randomInt } from "node:crypto";
import type { Transaction } from "sequelize";
import { getDb } from "~/models/db.server";
import { BACKUP_CODE_COUNT, normaliseCode } from "~/lib/shared/two-factor";

/**
 * Backup codes of two-factor sign-in (docs/decisions/0034-two-factor-sign-in.md): ten random codes,
 * shown once, stored as SHA-256 hashes, each claimed once by one conditional UPDATE.
 */

const BACKUP_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789";

function hashBackupCode(code: string): string {
  return createHash("sha256").update(normaliseCode(code)).digest("hex");
}

/** Ten codes of 12 characters from 32 (60 bits each), shown in groups of four: `abcd-efgh-jkmn`. */
function newBackupCodes(): string[] {
  return Array.from({ length: BACKUP_CODE_COUNT }, () => {
    const chars = Array.from({ length: 12 }, () => BACKUP_ALPHABET[randomInt(BACKUP_ALPHABET.length)]!);
    return [0, 4, 8].map((start) => chars.slice(start, start + 4).join("")).join("-");
  });
}

/** Replaces `userId`'s backup codes with ten new ones, in `transaction`; the codes, to be shown once. */
export async function replaceBackupCodes(transaction: Transaction, userId: string): Promise<string[]> {
  const { sequelize } = getDb();
  const codes = newBackupCodes();
  await sequelize.query(`DELETE FROM two_factor_backup_codes WHERE user_id = $1`, {
    bind: [userId],
    transaction,
  });
  await sequelize.query(
    `INSERT INTO two_factor_backup_codes (user_id, code_hash) SELECT $1, unnest($2::text[])`,
    {
      bind: [userId, codes.map(hashBackupCode)],
      transaction,
    },
  );
  return codes;
}

/** Uses up `code` if it is an unused backup code of `userId` (whose two-factor sign-in is on). */
export async function claimBackupCode(userId: string, code: string): Promise<boolean> {
  const [used] = await getDb().sequelize.query(
    `UPDATE two_factor_backup_codes b SET used_at = now()
       FROM two_factor_credentials c
      WHERE b.user_id = $1 AND b.code_hash = $2 AND b.used_at IS NULL
        AND c.user_id = b.user_id AND c.enabled_at IS NOT NULL
      RETURNING b.id`,
    { bind: [userId, hashBackupCode(code)] },
  );
  return (used as unknown[]).length > 0;
}
