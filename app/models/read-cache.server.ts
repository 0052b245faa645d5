import { QueryTypes } from "sequelize";
import { sharedByNextRun } from "~/lib/server/next-run.server";
import { processSingleton } from "~/lib/server/process-singleton.server";
import { oncePerRequest } from "~/lib/server/request-scope.server";
import { getDb } from "./db.server";
import { prepared } from "./prepared-statements.server";

/**
 * Catalogue reads kept until the catalogue changes (docs/decisions/0042-kept-reads-follow-the-catalogue.md).
 * The database holds the catalogue's version (db/migrations/0041-catalogue-version.ts), raised by triggers in the
 * transaction of every change to a table the kept reads select from: products,
 * variants and their stock, pictures, banners (the listing's counts change with the products). The change and the new version commit
 * together, so every process on every machine sees the new version exactly when it can see the change, by
 * whatever path it came (an admin, a sale, an import, a script, a person at psql). Each request asks for the
 * version once (one tiny statement, shared with the requests asking at the same moment, or a column of the
 * shopper's statement) and uses a kept read only when it was kept under that same version. A cart, a session, a rate limit, a mail, an order or an audit entry touches
 * none of those tables, so a shop that sells keeps its reads between catalogue changes.
 *
 * Where the version cannot be read (the table missing, the database out of reach), nothing is kept.
 */

/** How many reads each process keeps (oldest out first); a listing page of 24 products is about 60 KB. */
const KEPT_READS = 100;

/** The catalogue's version as text, as a column of any statement; NULL when there is none. */
export const CATALOGUE_VERSION_SQL =
  "(SELECT epoch::text || ':' || (folded + (SELECT count(*) FROM catalogue_changes))::text FROM catalogue_version)";

const CATALOGUE_VERSION_STATEMENT = prepared(`SELECT ${CATALOGUE_VERSION_SQL} AS version`);

async function queryCatalogueVersion(): Promise<string | null> {
  try {
    const rows = await getDb().sequelize.query<{ version: string | null }>(CATALOGUE_VERSION_STATEMENT, {
      bind: [],
      type: QueryTypes.SELECT,
    });
    return rows[0]?.version ?? null;
  } catch {
    // The database out of reach: the read itself then answers as it would.
    return null;
  }
}

/**
 * The version statement, shared by the requests that ask for it at once (under load, several a statement), each
 * still getting a version read after it asked: never one older than a change committed before it asked.
 */
const sharedCatalogueVersion = () =>
  processSingleton("catalogue-version-statement", () => sharedByNextRun(queryCatalogueVersion))();

const CATALOGUE_VERSION_KEY = "catalogue-version";

/**
 * Gives the request the catalogue version that a statement it already runs brought along (the shop layout's
 * shopper and cart), so that its kept reads ask for none; `undefined` when that statement had none to give. Only
 * a version read before the kept reads start may be noted: they wait for it.
 */
export function noteCatalogueVersion(version: Promise<string | null | undefined>): void {
  // Its failure reaches the statement's own callers.
  version.catch(() => {});
  oncePerRequest(CATALOGUE_VERSION_KEY, () => version);
}

/**
 * The catalogue version of this request: the one noted, or one statement's. Read once per request, when first
 * asked: a request that answers a form and then renders the page reads it after its own action's writes, unless
 * the action itself read the shopper's cart (a storefront action, which changes no catalogue).
 */
async function catalogueVersion(): Promise<string | null> {
  const noted = await oncePerRequest<Promise<string | null | undefined>>(
    CATALOGUE_VERSION_KEY,
    sharedCatalogueVersion,
  ).catch(() => undefined);
  return noted === undefined ? sharedCatalogueVersion() : noted;
}

const keptReads = () =>
  processSingleton(
    "kept-catalogue-reads",
    () => new Map<string, { version: string; value: Promise<unknown> }>(),
  );

/**
 * `read()`'s value, kept under `key` until the catalogue changes. `read` may select only from the catalogue's
 * tables (db/migrations/0041-catalogue-version.ts lists them). The value is shared by every request that gets
 * it from here: callers never change it. Requests that find the catalogue changed at the same moment share one
 * read of it (under load, one for all of them instead of one each); a read that fails is kept by nobody.
 */
export async function readUntilCatalogueChanges<T>(key: string, read: () => Promise<T>): Promise<T> {
  const version = await catalogueVersion();
  if (version === null) return read();
  const kept = keptReads();
  const found = kept.get(key);
  if (found?.version === version) return found.value as Promise<T>;
  // Taken before the read: a change committed between the two raises the version, and the next request reads
  // again; what is kept is never older than the version it is kept under.
  const entry = { version, value: read() };
  kept.delete(key);
  if (kept.size >= KEPT_READS) kept.delete(kept.keys().next().value!);
  kept.set(key, entry);
  entry.value.catch(() => {
    if (kept.get(key) === entry) kept.delete(key);
  });
  return entry.value;
}
