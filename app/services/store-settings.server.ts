import { QueryTypes, type Transaction } from "sequelize";
import { badRequest } from "~/lib/server/errors.server";
import { fieldErrorsOf } from "~/lib/shared/schemas";
import {
  SETTINGS_TEXT,
  storeSettingsFields,
  storeSettingsSchema,
  type StoreSettings,
  type StoreSettingsJson,
} from "~/lib/shared/store-settings";
import { oncePerRequest } from "~/lib/server/request-scope.server";
import { getDb } from "~/models/db.server";
import { prepared } from "~/models/prepared-statements.server";
import { CATALOGUE_VERSION_SQL, noteCatalogueVersion } from "~/models/read-cache.server";
import {
  changedFields,
  expectedVersionOf,
  recordAudit,
  refuseStaleVersion,
  SYSTEM_CHANGE,
  type AuditBy,
} from "./audit.server";

/**
 * The owner's store settings (docs/decisions/0043-open-storefront-and-guest-carts.md): one row of what the owner set,
 * read through the shared schema so that whatever was never set reads as its default. Each change
 * is one transaction with its version check and its audit entry.
 */

/** The audit log names every entry by an id: the settings, one for the whole shop, have this one. */
export const STORE_SETTINGS_AUDIT_ID = "00000000-0000-0000-0000-000000000000";

interface SettingsRow {
  settings: Record<string, unknown>;
  version: number;
  updatedAt: Date | string;
}

function refusal(error: Parameters<typeof fieldErrorsOf>[0]) {
  const errors = fieldErrorsOf(error);
  return badRequest(Object.values(errors).flat()[0] ?? "Invalid settings", errors);
}

function toJson(row: SettingsRow | undefined): StoreSettingsJson {
  // What the owner stored was checked when it was stored; a setting a later release dropped is ignored,
  // and one the stored values no longer satisfy reads as its default rather than failing every page.
  const parsed = storeSettingsSchema.safeParse(row?.settings ?? {});
  const settings = parsed.success ? parsed.data : storeSettingsSchema.parse({});
  return {
    ...settings,
    version: row?.version ?? 1,
    updatedAt: new Date(row?.updatedAt ?? 0).toISOString(),
  };
}

async function readRow(transaction?: Transaction, lock = false): Promise<SettingsRow | undefined> {
  const [row] = await getDb().sequelize.query<SettingsRow>(
    `SELECT settings, version, updated_at AS "updatedAt" FROM store_settings${lock ? " FOR UPDATE" : ""}`,
    { type: QueryTypes.SELECT, transaction },
  );
  return row;
}

/** The settings as they stand, every default filled in. */
export async function getStoreSettings(transaction?: Transaction): Promise<StoreSettingsJson> {
  return toJson(await readRow(transaction));
}

const STORE_SETTINGS_KEY = "store-settings";

/**
 * The settings for this request: read once however many guards and loaders ask (a change made by the
 * request's own action, the settings page's, is read again by the redirect it answers with).
 */
export function currentStoreSettings(): Promise<StoreSettingsJson> {
  return oncePerRequest(STORE_SETTINGS_KEY, () => getStoreSettings());
}

const SETTINGS_AND_CATALOGUE_SQL = prepared(
  `SELECT settings, version, updated_at AS "updatedAt", ${CATALOGUE_VERSION_SQL} AS "catalogueVersion"
     FROM store_settings`,
);

/**
 * What a visitor's page is made of besides its URL, in one statement: the settings (with their version) and
 * the catalogue's version (docs/decisions/0042). A page that a shared cache may keep asks for them before its
 * loaders run (app/web/page-cache.server.ts); they become this request's settings and catalogue version, so the
 * guards and the kept reads read neither again. `catalogueVersion` is null where the database has none.
 */
export async function storefrontVersions(): Promise<{
  settings: StoreSettingsJson;
  catalogueVersion: string | null;
}> {
  const [row] = await getDb().sequelize.query<SettingsRow & { catalogueVersion: string | null }>(
    SETTINGS_AND_CATALOGUE_SQL,
    { bind: [], type: QueryTypes.SELECT },
  );
  const settings = toJson(row);
  const catalogueVersion = row?.catalogueVersion ?? null;
  oncePerRequest(STORE_SETTINGS_KEY, () => Promise.resolve(settings));
  // Without the row nothing is known of the catalogue either: the kept reads ask for it themselves.
  if (row) noteCatalogueVersion(Promise.resolve(catalogueVersion));
  return { settings, catalogueVersion };
}

/** The settings an owner may change, in the order the audit entry lists them. */
const SETTING_NAMES = Object.keys(storeSettingsFields.shape) as (keyof StoreSettings)[];

/**
 * Changes the settings sent (the others keep their values). `version`, when sent, must be the stored
 * one (409 otherwise); a value out of its list, or guest checkout without the open storefront, is a
 * 400 naming the field. A change that changes nothing writes nothing.
 */
export async function updateStoreSettings(
  input: unknown,
  by: AuditBy = SYSTEM_CHANGE,
): Promise<StoreSettingsJson> {
  const body = typeof input === "object" && input !== null ? (input as Record<string, unknown>) : {};
  const expected = expectedVersionOf(body);
  const patch = storeSettingsFields.partial().safeParse(body);
  if (!patch.success) throw refusal(patch.error);
  const sent = Object.fromEntries(Object.entries(patch.data).filter(([, value]) => value !== undefined));
  const { sequelize } = getDb();
  return sequelize.transaction(async (transaction) => {
    // The row exists from the migration on; a database emptied by hand gets it back here.
    await sequelize.query(`INSERT INTO store_settings (id) VALUES (true) ON CONFLICT (id) DO NOTHING`, {
      transaction,
    });
    const current = toJson(await readRow(transaction, true));
    refuseStaleVersion(expected, current.version);
    const next = storeSettingsSchema.safeParse({ ...pick(current), ...sent });
    if (!next.success) throw refusal(next.error);
    const changes = changedFields(pick(current), next.data, SETTING_NAMES);
    if (!Object.keys(changes).length) return current;
    const [row] = await sequelize.query<SettingsRow>(
      `UPDATE store_settings SET settings = :settings::jsonb, version = version + 1, updated_at = now()
        RETURNING settings, version, updated_at AS "updatedAt"`,
      { replacements: { settings: JSON.stringify(next.data) }, type: QueryTypes.SELECT, transaction },
    );
    await recordAudit(transaction, {
      ...by,
      action: "update",
      entity: "settings",
      entityId: STORE_SETTINGS_AUDIT_ID,
      changes,
    });
    return toJson(row);
  });
}

function pick(settings: StoreSettingsJson): StoreSettings {
  return Object.fromEntries(SETTING_NAMES.map((name) => [name, settings[name]])) as StoreSettings;
}

export { SETTINGS_TEXT };
