import type { MigrationFn } from "umzug";
import type { QueryInterface } from "sequelize";
import { auditEntities } from "./audit-entities";

/**
 * Two-factor sign-in (docs/decisions/0034-two-factor-sign-in.md).
 *
 * - `two_factor_credentials`: one row per person who started enrolment. The TOTP secret is
 *   stored encrypted (AES-256-GCM under a key derived from SESSION_SECRET); `enabled_at` is null
 *   while the enrolment waits for its first code. `last_used_step` is the 30-second step of the
 *   last code accepted: a code of that step or an earlier one is refused (a code is accepted once).
 * - `two_factor_backup_codes`: ten per enrolment, stored as SHA-256 hashes; `used_at` marks the
 *   one-time use (claimed by one UPDATE, so two parallel uses of one code cannot both pass).
 * - `two_factor_challenges`: a sign-in whose password was right and whose code is awaited. The
 *   challenge cookie carries its id; `attempts` counts the codes evaluated, raised by one UPDATE
 *   guarded by `attempts < 5` before a code is looked at, so parallel guesses cannot overrun it.
 * - The audit log records resets of someone's two-factor sign-in (entity `twoFactor`).
 */

const up = `
CREATE TABLE two_factor_credentials (
  user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  secret_encrypted text NOT NULL,
  enabled_at timestamptz,
  last_used_step bigint,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE two_factor_backup_codes (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  code_hash char(64) NOT NULL,
  used_at timestamptz,
  UNIQUE (user_id, code_hash)
);

CREATE TABLE two_factor_challenges (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  completed_at timestamptz
);
CREATE INDEX two_factor_challenges_user_idx ON two_factor_challenges (user_id);
CREATE INDEX two_factor_challenges_expires_idx ON two_factor_challenges (expires_at);

`;

const down = `
DROP TABLE IF EXISTS two_factor_challenges, two_factor_backup_codes, two_factor_credentials;
`;

export const twoFactorUp: MigrationFn<QueryInterface> = async ({ context }) => {
  await context.sequelize.query(up);
  // The audit log records two-factor resets.
  await auditEntities(context, (entities) => [...new Set([...entities, "twoFactor"])]);
};

export const twoFactorDown: MigrationFn<QueryInterface> = async ({ context }) => {
  await auditEntities(context, (entities) => entities.filter((entity) => entity !== "twoFactor"));
  await context.sequelize.query(down);
};
