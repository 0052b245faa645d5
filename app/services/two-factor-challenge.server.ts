import { QueryTypes } from "sequelize";
import { getDb } from "~/models/db.server";
import { AppError, unauthorized } from "~/lib/server/errors.server";
import { isUuid } from "~/lib/shared/uuid";
import { CHALLENGE_MAX_ATTEMPTS, CHALLENGE_MINUTES, TWO_FACTOR_TEXT } from "~/lib/shared/two-factor";
import { verifySecondFactor } from "./two-factor.server";
import { SESSION_USER_COLUMNS, toSessionUser, type SessionUser, type SessionUserRow } from "./users.server";

/**
 * A sign-in whose password was right and whose second factor is awaited: a row in PostgreSQL
 * (so that every app instance counts the same attempts), named by the challenge cookie, alive for
 * CHALLENGE_MINUTES. It ends when a code is accepted, or after CHALLENGE_MAX_ATTEMPTS codes.
 *
 * Counting holds under parallel guessing: before a code is looked at, one UPDATE raises
 * `attempts` only while it is below the limit and returns the row; a guess whose UPDATE returns
 * nothing is refused unevaluated (429). PostgreSQL's row lock serialises the UPDATEs, so of any
 * number of parallel guesses at most CHALLENGE_MAX_ATTEMPTS are evaluated.
 */

/** Opens a challenge for `userId` (expired ones of anybody go: housekeeping); its id. */
export async function startChallenge(userId: string): Promise<string> {
  const { sequelize } = getDb();
  await sequelize.query(`DELETE FROM two_factor_challenges WHERE expires_at <= now()`);
  const rows = await sequelize.query<{ id: string }>(
    `INSERT INTO two_factor_challenges (user_id, expires_at)
     VALUES ($1, now() + make_interval(mins => $2)) RETURNING id`,
    { bind: [userId, CHALLENGE_MINUTES], type: QueryTypes.SELECT },
  );
  return rows[0]!.id;
}

/** The refusal of a challenge whose attempt could not be taken: spent (429) or gone (401). */
async function refusalOfUnclaimed(challengeId: string): Promise<AppError> {
  const rows = await getDb().sequelize.query<{ spent: boolean }>(
    `SELECT attempts >= $2 AS spent FROM two_factor_challenges
      WHERE id = $1 AND completed_at IS NULL AND expires_at > now()`,
    { bind: [challengeId, CHALLENGE_MAX_ATTEMPTS], type: QueryTypes.SELECT },
  );
  return rows[0]?.spent
    ? new AppError(429, TWO_FACTOR_TEXT.challengeSpent)
    : unauthorized(TWO_FACTOR_TEXT.challengeExpired);
}

/**
 * Answers the challenge `challengeId` with `code` (a current TOTP code or an unused backup code):
 * the user to start a session for. 401 for a wrong or replayed code and for a challenge that is
 * unknown, expired or completed; 429 once its attempts are spent (until a new sign-in).
 */
export async function answerChallenge(challengeId: string | null, code: string): Promise<SessionUser> {
  if (!challengeId || !isUuid(challengeId)) throw unauthorized(TWO_FACTOR_TEXT.challengeExpired);
  const { sequelize } = getDb();
  const claimed = await sequelize.query<{ userId: string }>(
    `UPDATE two_factor_challenges SET attempts = attempts + 1
      WHERE id = $1 AND completed_at IS NULL AND expires_at > now() AND attempts < $2
      RETURNING user_id AS "userId"`,
    { bind: [challengeId, CHALLENGE_MAX_ATTEMPTS], type: QueryTypes.SELECT },
  );
  const userId = claimed[0]?.userId;
  if (!userId) throw await refusalOfUnclaimed(challengeId);
  const verdict = await verifySecondFactor(userId, code);
  if (verdict !== "accepted") {
    throw unauthorized(verdict === "replayed" ? TWO_FACTOR_TEXT.replayedCode : TWO_FACTOR_TEXT.wrongCode);
  }
  // The session user's columns, as login reads them: a staff member's permissions come along.
  const completed = await sequelize.query<SessionUserRow>(
    `WITH done AS (
       UPDATE two_factor_challenges SET completed_at = now()
        WHERE id = $1 AND completed_at IS NULL AND expires_at > now() RETURNING user_id)
     SELECT ${SESSION_USER_COLUMNS} FROM users u JOIN done ON done.user_id = u.id`,
    { bind: [challengeId], type: QueryTypes.SELECT },
  );
  if (!completed[0]) throw unauthorized(TWO_FACTOR_TEXT.challengeExpired);
  return toSessionUser(completed[0]);
}
