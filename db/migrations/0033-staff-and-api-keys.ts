import type { MigrationFn } from "umzug";
import type { QueryInterface } from "sequelize";
import { auditEntities } from "./audit-entities";

/**
 * Staff with permissions per area, and API keys for programs
 * (docs/decisions/0033-staff-permissions-and-api-keys.md).
 *
 * - `users.role` may be `staff`: a back-office person who holds `permissions`
 *   (names from app/lib/shared/permissions.ts; an admin holds every one
 *   whatever the column says). `disabled_at` set: the person cannot sign in,
 *   and the session lookup and the key lookup both refuse them.
 * - `api_keys`: a program's key, named, with its permissions (never `staff`),
 *   optional expiry and revocation. Only the SHA-256 of the secret is kept,
 *   with its last four characters to tell keys apart. A key dies with the
 *   person who made it (ON DELETE CASCADE).
 * - The audit log records key changes (entity `apiKey`): its entity list
 *   grows by one, whatever it holds now (read in either form PostgreSQL prints).
 * - An invitation is a password-reset token valid for 72 hours: no table of its own.
 */

const up = `
ALTER TABLE users DROP CONSTRAINT IF EXISTS users_role_check;
ALTER TABLE users ADD CONSTRAINT users_role_check CHECK (role IN ('user', 'admin', 'staff'));
ALTER TABLE users ADD COLUMN permissions text[] NOT NULL DEFAULT '{}';
ALTER TABLE users ADD COLUMN disabled_at timestamptz;
-- The last-admin rule reads the active admins under a lock: a small partial index finds them.
CREATE INDEX users_active_admins ON users (id) WHERE role = 'admin' AND disabled_at IS NULL;

CREATE TABLE api_keys (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name varchar(60) NOT NULL,
  secret_hash char(64) NOT NULL UNIQUE,
  last_four char(4) NOT NULL,
  permissions text[] NOT NULL CHECK (cardinality(permissions) > 0 AND NOT ('staff' = ANY (permissions))),
  created_by uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz,
  revoked_at timestamptz,
  last_used_at timestamptz
);
CREATE INDEX api_keys_created_by ON api_keys (created_by);
`;

const down = `
DROP TABLE IF EXISTS api_keys;
DROP INDEX IF EXISTS users_active_admins;
ALTER TABLE users DROP COLUMN IF EXISTS disabled_at;
ALTER TABLE users DROP COLUMN IF EXISTS permissions;
DELETE FROM users WHERE role = 'staff';
ALTER TABLE users DROP CONSTRAINT IF EXISTS users_role_check;
ALTER TABLE users ADD CONSTRAINT users_role_check CHECK (role IN ('user', 'admin'));
`;

export const staffAndApiKeysUp: MigrationFn<QueryInterface> = async ({ context }) => {
  await context.sequelize.query(up);
  await auditEntities(context, (entities) => [...new Set([...entities, "apiKey"])]);
};

export const staffAndApiKeysDown: MigrationFn<QueryInterface> = async ({ context }) => {
  await context.sequelize.query(down);
  await auditEntities(context, (entities) => entities.filter((entity) => entity !== "apiKey"));
};
