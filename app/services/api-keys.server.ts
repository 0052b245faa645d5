import { createHash, randomBytes } from "node:crypto";
import { QueryTypes } from "sequelize";
import { RateLimiterRes } from "rate-limiter-flexible";
import { getDb } from "~/models/db.server";
import { prepared } from "~/models/prepared-statements.server";
import { badRequest, forbidden, notFound, tooManyRequests } from "~/lib/server/errors.server";
import { processSingleton } from "~/lib/server/process-singleton.server";
import { recordRateLimitRefusal } from "~/lib/server/metrics.server";
import { permissionsOf, unheldBy } from "~/lib/shared/permissions";
import { API_KEY_PREFIX, createApiKeySchema, type ApiKeyView } from "~/lib/shared/staff-schemas";
import { fieldErrorsOf } from "~/lib/shared/schemas";
import { isUuid } from "~/lib/shared/uuid";
import { AUDIT_ACTOR_NAME_MAX, recordAudit, type AuditBy } from "./audit.server";
import { postgresLimiter } from "./rate-limit.server";
import type { SessionUser } from "./users.server";

/**
 * API keys for programs (docs/decisions/0033-staff-permissions-and-api-keys.md).
 * A key is `shop_sk_` and 32 random bytes; the database keeps only their
 * SHA-256 (a fast hash is enough for a secret of 256 bits: nobody can guess
 * one, so there is nothing for a slow hash to slow down) and the last four
 * characters. Every call looks the key up afresh, joined with its creator: a
 * revoked or expired key, or one whose creator was disabled or removed,
 * answers 401 on the very next call. A key acts with its own permissions,
 * never more than its creator holds now.
 */

/** Calls one key may make per minute; beyond it 429 with Retry-After (counted in PostgreSQL, every instance together). */
export const API_KEY_CALLS_PER_MINUTE = 600;
/** `lastUsedAt` is written at most this often per key: a stream of calls costs no write each. */
const LAST_USED_RESOLUTION_MS = 60_000;

/** The key's caller, as the guards hand it to the routes: the creator's id, the key's actor name and permissions. */
export interface ApiKeyCaller extends SessionUser {
  apiKeyId: string;
}

export function hashApiKeySecret(secret: string): string {
  return createHash("sha256").update(secret, "utf8").digest("hex");
}

function newSecret(): string {
  return `${API_KEY_PREFIX}${randomBytes(32).toString("base64url")}`;
}

interface KeyRow {
  id: string;
  name: string;
  lastFour: string;
  permissions: string[];
  createdBy: string;
  creatorName: string;
  createdAt: Date;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
}

function viewOf(row: KeyRow): ApiKeyView {
  return {
    _id: row.id,
    name: row.name,
    lastFour: row.lastFour,
    permissions: permissionsOf({ role: "staff", permissions: row.permissions }),
    createdBy: { id: row.createdBy, userName: row.creatorName },
    createdAt: new Date(row.createdAt).toISOString(),
    expiresAt: row.expiresAt ? new Date(row.expiresAt).toISOString() : null,
    lastUsedAt: row.lastUsedAt ? new Date(row.lastUsedAt).toISOString() : null,
  };
}

const KEY_COLUMNS = `k.id, k.name, k.last_four AS "lastFour", k.permissions, k.created_by AS "createdBy",
  u.user_name AS "creatorName", k.created_at AS "createdAt", k.expires_at AS "expiresAt",
  k.last_used_at AS "lastUsedAt"`;

/** The keys that still work (not revoked, not expired), newest first. */
export async function listApiKeys(): Promise<ApiKeyView[]> {
  const rows = await getDb().sequelize.query<KeyRow>(
    `SELECT ${KEY_COLUMNS} FROM api_keys k JOIN users u ON u.id = k.created_by
      WHERE k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > now())
      ORDER BY k.created_at DESC, k.id`,
    { type: QueryTypes.SELECT },
  );
  return rows.map(viewOf);
}

/**
 * Makes a key for `creator` and answers it with its secret, the only time the
 * secret is ever shown. 400 for invalid fields, 403 for a permission the
 * creator does not hold.
 */
export async function createApiKey(
  creator: SessionUser,
  input: unknown,
  by: AuditBy,
): Promise<ApiKeyView & { secret: string }> {
  const parsed = createApiKeySchema.safeParse(input);
  if (!parsed.success) throw badRequest("Please check the highlighted fields", fieldErrorsOf(parsed.error));
  const { name, permissions, expiresAt } = parsed.data;
  const lacking = unheldBy(creator, permissions);
  if (lacking.length)
    throw forbidden(`A key cannot hold a permission you do not have: ${lacking.join(", ")}`);
  const secret = newSecret();
  const { sequelize } = getDb();
  return sequelize.transaction(async (transaction) => {
    const [row] = await sequelize.query<{ id: string }>(
      `INSERT INTO api_keys (name, secret_hash, last_four, permissions, created_by, expires_at)
       VALUES ($1, $2, $3, $4::text[], $5, $6) RETURNING id`,
      {
        bind: [name, hashApiKeySecret(secret), secret.slice(-4), permissions, creator.id, expiresAt ?? null],
        type: QueryTypes.SELECT,
        transaction,
      },
    );
    await recordAudit(transaction, {
      ...by,
      action: "create",
      entity: "apiKey",
      entityId: row!.id,
      changes: {
        name: [null, name],
        permissions: [null, permissions],
        expiresAt: [null, expiresAt?.toISOString() ?? null],
        lastFour: [null, secret.slice(-4)],
      },
    });
    const [created] = await sequelize.query<KeyRow>(
      `SELECT ${KEY_COLUMNS} FROM api_keys k JOIN users u ON u.id = k.created_by WHERE k.id = $1`,
      { bind: [row!.id], type: QueryTypes.SELECT, transaction },
    );
    return { ...viewOf(created!), secret };
  });
}

/**
 * Revokes a key at once (its next call answers 401). 404 for an unknown or already revoked key; 403
 * for a key holding a permission `actor` lacks (as granting it would: admins revoke any).
 */
export async function revokeApiKey(actor: SessionUser, id: string, by: AuditBy): Promise<void> {
  if (!isUuid(id)) throw notFound("API key not found");
  const { sequelize } = getDb();
  await sequelize.transaction(async (transaction) => {
    const [key] = await sequelize.query<{ permissions: string[] }>(
      `SELECT permissions FROM api_keys WHERE id = $1 AND revoked_at IS NULL FOR UPDATE`,
      { bind: [id], type: QueryTypes.SELECT, transaction },
    );
    if (!key) throw notFound("API key not found");
    const lacking = unheldBy(actor, key.permissions);
    if (lacking.length)
      throw forbidden(`You cannot revoke a key with a permission you do not hold: ${lacking.join(", ")}`);
    const [row] = await sequelize.query<{ name: string; revokedAt: Date }>(
      `UPDATE api_keys SET revoked_at = now() WHERE id = $1 RETURNING name, revoked_at AS "revokedAt"`,
      { bind: [id], type: QueryTypes.SELECT, transaction },
    );
    await recordAudit(transaction, {
      ...by,
      action: "revoke",
      entity: "apiKey",
      entityId: id,
      changes: { [`key ${row!.name}`]: ["active", `revoked ${new Date(row!.revokedAt).toISOString()}`] },
    });
  });
}

/**
 * A key's name as it acts, on the audit log and wherever its caller is named: "Key <name> of <creator>".
 * The key's own name alone could read as anybody's ("Demo Admin"); this always says it is a key and
 * whose. A long name is shortened so that the creator's name always fits.
 */
export function apiKeyActorName(keyName: string, creatorName: string): string {
  const room = AUDIT_ACTOR_NAME_MAX - `Key  of ${creatorName}`.length;
  const name = keyName.length > room ? `${keyName.slice(0, Math.max(0, room - 1))}…` : keyName;
  return `Key ${name} of ${creatorName}`;
}

interface ResolvedRow {
  id: string;
  name: string;
  creatorName: string;
  permissions: string[];
  lastUsedAt: Date | null;
  creatorId: string;
  email: string;
  role: SessionUser["role"];
  creatorPermissions: string[];
}

// Prepared: every call of a program runs it (prepared-statements.server.ts).
const RESOLVE_SQL =
  prepared(`SELECT k.id, k.name, k.permissions, k.last_used_at AS "lastUsedAt", u.id AS "creatorId",
            u.user_name AS "creatorName", u.email, u.role, u.permissions AS "creatorPermissions"
       FROM api_keys k JOIN users u ON u.id = k.created_by AND u.disabled_at IS NULL
      WHERE k.secret_hash = $1 AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > now())`);

/**
 * The caller a secret stands for, or null for an unknown, revoked or expired
 * key or one whose creator is disabled or gone: looked up on every call.
 * Its permissions are the key's, less any its creator no longer holds.
 */
export async function resolveApiKey(secret: string): Promise<ApiKeyCaller | null> {
  if (!secret.startsWith(API_KEY_PREFIX) || secret.length > 200) return null;
  const { sequelize } = getDb();
  const [row] = await sequelize.query<ResolvedRow>(RESOLVE_SQL, {
    bind: [hashApiKeySecret(secret)],
    type: QueryTypes.SELECT,
  });
  if (!row) return null;
  const creatorHolds = permissionsOf({ role: row.role, permissions: row.creatorPermissions });
  const permissions = permissionsOf({ role: "staff", permissions: row.permissions }).filter(
    (permission) => permission !== "staff" && creatorHolds.includes(permission),
  );
  await noteUse(row.id, row.lastUsedAt);
  // A program acts as a staff member with the key's permissions; its changes name the key and its creator.
  return {
    id: row.creatorId,
    userName: apiKeyActorName(row.name, row.creatorName),
    email: row.email,
    role: "staff",
    permissions,
    apiKeyId: row.id,
  };
}

/** Writes `last_used_at` when the stored one is a minute old or more (or none): a busy key writes once a minute. */
async function noteUse(id: string, lastUsedAt: Date | null): Promise<void> {
  if (lastUsedAt && Date.now() - new Date(lastUsedAt).getTime() < LAST_USED_RESOLUTION_MS) return;
  await getDb().sequelize.query(
    `UPDATE api_keys SET last_used_at = now()
      WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`,
    { bind: [id] },
  );
}

function limiter() {
  return processSingleton("api-key-limiter", () =>
    postgresLimiter("api_key", { points: API_KEY_CALLS_PER_MINUTE, duration: 60 }),
  );
}

/** Counts one call of the key; throws 429 (Retry-After) beyond API_KEY_CALLS_PER_MINUTE. */
export async function consumeApiKeyCall(keyId: string): Promise<void> {
  try {
    await limiter().consume(keyId, 1);
  } catch (error) {
    if (!(error instanceof RateLimiterRes)) throw error;
    const seconds = Math.max(1, Math.ceil(error.msBeforeNext / 1000));
    recordRateLimitRefusal("api-key");
    throw tooManyRequests(
      `Too many calls with this API key. Please try again in ${seconds} seconds.`,
      seconds,
    );
  }
}
