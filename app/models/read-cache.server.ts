import { QueryTypes } from "sequelize";
import { processSingleton } from "~/lib/server/process-singleton.server";
import { oncePerRequest } from "~/lib/server/request-scope.server";
import { getDb } from "./db.server";
import { prepared } from "./prepared-statements.server";

/**
 * Reads kept until the database changes. PostgreSQL writes every change to its write-ahead log before anyone
 * can see it, so the log's insert position (`pg_current_wal_insert_lsn()`) moves with every committed write,
 * in any table, by any process or server of the shop, a script or a person at psql. A read made after the
 * position was taken, and kept under it, is therefore still true for as long as the position has not moved:
 * the next request of any process asks for the position (one tiny statement) and uses the kept read only
 * when it is the same. An admin's change, a sale that takes stock, an import: each moves the position, and
 * the next read is fresh. Reads alone write nothing to the log, so a storefront that is only browsed keeps
 * its reads.
 *
 * Coarse on purpose: any write invalidates every kept read, so that no rule has to know which tables a read
 * depends on. Where the position cannot be read (a standby server during recovery), nothing is kept.
 */

/** How many reads each process keeps (oldest out first); a listing page of 24 products is about 60 KB. */
const KEPT_READS = 100;

/** The write-ahead log's insert position as text, as a column of any statement; NULL on a standby. */
export const WRITE_MARK_SQL =
  "CASE WHEN pg_is_in_recovery() THEN NULL ELSE pg_current_wal_insert_lsn()::text END";

const WRITE_MARK_STATEMENT = prepared(`SELECT ${WRITE_MARK_SQL} AS mark`);

async function queryWriteMark(): Promise<string | null> {
  try {
    const rows = await getDb().sequelize.query<{ mark: string | null }>(WRITE_MARK_STATEMENT, {
      bind: [],
      type: QueryTypes.SELECT,
    });
    return rows[0]?.mark ?? null;
  } catch {
    // The database out of reach: the read itself then answers as it would.
    return null;
  }
}

const WRITE_MARK_KEY = "database-write-mark";

/**
 * Gives the request the write mark that a statement it already runs brought along (the shop layout's shopper and
 * cart), so that its kept reads ask for none; `undefined` when that statement had none to give. Only a mark
 * read before the kept reads start may be noted: they wait for it.
 */
export function noteWriteMark(mark: Promise<string | null | undefined>): void {
  // Its failure reaches the statement's own callers.
  mark.catch(() => {});
  oncePerRequest(WRITE_MARK_KEY, () => mark);
}

/**
 * The write mark of this request: the one noted, or one statement's. Read once per request, when first asked:
 * a request that answers a form and then renders the page reads it after its own action's writes, unless the
 * action itself read the shopper's cart (a storefront action, which changes no catalogue).
 */
async function writeMark(): Promise<string | null> {
  const noted = await oncePerRequest<Promise<string | null | undefined>>(
    WRITE_MARK_KEY,
    queryWriteMark,
  ).catch(() => undefined);
  return noted === undefined ? queryWriteMark() : noted;
}

const keptReads = (store: string) =>
  processSingleton(store, () => new Map<string, { mark: string; value: unknown }>());

/**
 * `read()`'s value, kept under `key` until the database changes. The value is shared by every request that
 * gets it from here: callers never change it. `store` names a store of its own of `size` reads, for many
 * small reads (one per shopper) that must not push the catalogue's out of the shared one.
 */
export async function readUntilWrite<T>(
  key: string,
  read: () => Promise<T>,
  { store = "kept-reads", size = KEPT_READS }: { store?: string; size?: number } = {},
): Promise<T> {
  const mark = await writeMark();
  if (mark === null) return read();
  const kept = keptReads(store);
  const found = kept.get(key);
  if (found?.mark === mark) return found.value as T;
  // Taken before the read: a write between the two moves the position, and the next request reads again.
  const value = await read();
  kept.delete(key);
  if (kept.size >= size) kept.delete(kept.keys().next().value!);
  kept.set(key, { mark, value });
  return value;
}
