import { QueryTypes } from "sequelize";
import { getDb } from "../../app/models/db.server";
import { createTestUser } from "../support/database";
import { sessionCookieFor } from "../support/requests";
import { createApiKey } from "../../app/services/api-keys.server";
import { SYSTEM_CHANGE } from "../../app/services/audit.server";
import type { Permission } from "../../app/lib/shared/permissions";

/** Helpers for the staff, permission and API key tests. */

let counter = 0;

/** A signed-in staff member holding `permissions` (an admin with role "admin"). */
export async function backOffice(role: "admin" | "staff", permissions: Permission[] = []) {
  counter += 1;
  const user = await createTestUser({
    role,
    permissions,
    userName: `${role === "admin" ? "Ada" : "Sid"} ${counter}`,
    email: `${role}-${counter}-${Date.now()}@example.com`,
  });
  return { user, cookie: await sessionCookieFor(user.id) };
}

/** A key made by `creator` (an admin unless given) holding `permissions`: its secret. */
export async function apiKeyFor(
  permissions: Permission[],
  creator?: {
    id: string;
    userName: string;
    email: string;
    role: "admin" | "staff" | "user";
    permissions?: string[];
  },
  name = `Key ${++counter}`,
): Promise<{ secret: string; id: string }> {
  const maker = creator ?? (await backOffice("admin")).user;
  const key = await createApiKey(
    {
      id: maker.id,
      userName: maker.userName,
      email: maker.email,
      role: maker.role,
      permissions: maker.permissions as Permission[],
    },
    { name, permissions },
    SYSTEM_CHANGE,
  );
  return { secret: key.secret, id: key._id };
}

export const bearer = (secret: string) => ({ Authorization: `Bearer ${secret}` });

/** The outbox's mails to `recipient`, newest last. */
export async function mailsTo(recipient: string) {
  return getDb().sequelize.query<{ kind: string; subject: string; text: string }>(
    `SELECT kind, subject, text_body AS text FROM mail_outbox WHERE recipient = $1 ORDER BY created_at`,
    { bind: [recipient], type: QueryTypes.SELECT },
  );
}

export async function auditEntries(entityId: string) {
  return getDb().sequelize.query<{
    action: string;
    actorName: string;
    actorId: string | null;
    entity: string;
    changes: Record<string, [unknown, unknown]>;
  }>(
    `SELECT action, actor_name AS "actorName", actor_id AS "actorId", entity, changes FROM audit_log WHERE entity_id = $1 ORDER BY seq`,
    { bind: [entityId], type: QueryTypes.SELECT },
  );
}
