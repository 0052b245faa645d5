import pg from "pg";
import { processSingleton } from "~/lib/server/process-singleton.server";

/**
 * Named prepared statements for the reads every page runs: the session and
 * cart lookup, the catalogue's listing, product and search queries.
 *
 * pg sends a statement with bound values as an unnamed statement, which
 * PostgreSQL parses, analyses and plans again on every call. For the shop's
 * joins that costs the database four to five times the CPU of running them
 * (bench/RESULTS.md, run 7; docs/decisions/0007). A statement marked with
 * `prepared(sql)` gets a name instead: each connection parses it once, and
 * every later call only binds and executes it (PostgreSQL's plan cache
 * decides between a generic and a per-value plan, as for any prepared
 * statement).
 *
 * The SQL text is the key: Sequelize hands pg the text of `sequelize.query`
 * trimmed and otherwise unchanged when the bound values are an array, and the
 * Client below looks the text up. A text that differs by a value would be a new statement per value,
 * so values are always bound, never written into the text; the list is capped
 * (MAX_PREPARED_STATEMENTS per process) so that a mistake costs memory in no
 * database session beyond that.
 *
 * A statement whose result columns changed type (a migration during a rolling
 * deploy) is deallocated and prepared again on its connection, transparently.
 *
 * `DATABASE_PREPARED_STATEMENTS=false` turns names off, for a connection pooler
 * that hands one client's statements to another server session (PgBouncer in
 * transaction mode before 1.21, or without `max_prepared_statements`).
 */

export const MAX_PREPARED_STATEMENTS = 200;

/** The names of marked SQL texts: `shop_1`, `shop_2`, … in the order they were marked, at most `max`. */
export class PreparedStatementNames {
  private readonly names = new Map<string, string>();

  constructor(private readonly max = MAX_PREPARED_STATEMENTS) {}

  /** Gives `sql` a name unless it has one or the list is full; returns `sql`. */
  mark(sql: string): string {
    const sent = sql.trim(); // as Sequelize sends it
    if (this.names.size < this.max && !this.names.has(sent)) {
      this.names.set(sent, `shop_${this.names.size + 1}`);
    }
    return sql;
  }

  /** The name of a marked text, or undefined. */
  nameOf(sql: string): string | undefined {
    return this.names.get(sql);
  }
}

// One per process: the framework build's services mark statements, the server's module graph may create the pool.
const names = processSingleton("prepared-statements", () => new PreparedStatementNames(), {
  keepAcrossTests: true,
});

/** Marks `sql` to be sent as a named prepared statement; returns it unchanged. */
export function prepared(sql: string): string {
  return names.mark(sql);
}

/** The statement name of a marked text, or undefined. */
export function preparedStatementName(sql: string): string | undefined {
  return names.nameOf(sql);
}

type QueryCallback = (error: (Error & { code?: string }) | null, result: unknown) => void;
type Query = (config: unknown, values?: unknown, callback?: QueryCallback) => unknown;
type ClientWithConnection = pg.Client & { connection: { parsedStatements: Record<string, string> } };

/**
 * PostgreSQL's answer when the columns a prepared statement returns changed type under it (a migration of a newer
 * instance during a rolling deploy). The statement stays broken on that connection until it is deallocated.
 */
function isStaleResultType(error: (Error & { code?: string }) | null): boolean {
  return error?.code === "0A000" && error.message.includes("cached plan must not change result type");
}

/**
 * pg as Sequelize's `dialectModule`, with a Client that sends marked texts by
 * name. Everything else (types, errors, the Client's other calls) is pg's own.
 */
export function pgWithPreparedStatements(enabled: boolean): typeof pg {
  if (!enabled) return pg;
  class Client extends pg.Client {}
  const query = pg.Client.prototype.query as unknown as Query;
  (Client.prototype as unknown as { query: Query }).query = function (
    this: ClientWithConnection,
    config,
    values,
    callback,
  ) {
    // Sequelize calls query(text, values, callback) for a statement with bound values.
    const name =
      typeof config === "string" && Array.isArray(values) && callback ? names.nameOf(config) : undefined;
    if (!name || !callback) return query.call(this, config, values, callback);
    const statement = { name, text: config, values };
    return query.call(this, statement, (error: Parameters<QueryCallback>[0], result: unknown) => {
      if (!isStaleResultType(error)) return callback(error, result);
      // Deallocate it and prepare it again from its text, once. When the DEALLOCATE fails too (the statement ran in
      // a transaction, which its error aborted), the caller gets the error; the next call outside one mends it.
      query.call(this, `DEALLOCATE ${name}`, (deallocateError: Error | null) => {
        if (deallocateError) return callback(error, result);
        delete this.connection.parsedStatements[name];
        query.call(this, statement, callback);
      });
    });
  };
  return Object.create(pg, { Client: { value: Client, enumerable: true } }) as typeof pg;
}
