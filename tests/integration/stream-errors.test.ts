import { QueryTypes } from "sequelize";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "../../app/models/db.server";
import { CSV_ERROR_MARKER } from "../../app/lib/server/csv.server";
import { ORDER_EXPORT_BATCH } from "../../app/services/order-export.server";
import { createTestUser, resetDatabase } from "../support/database";
import { send, startTestServer } from "../support/http-app";
import { sessionCookieFor } from "../support/requests";

/**
 * An error in a stream never ends the process: the real HTTP server (server/app.ts)
 * streams the orders CSV export while the database refuses a query part-way.
 * The download ends with the error marker, and the next request is answered.
 */

let server: Awaited<ReturnType<typeof startTestServer>>;
let admin = "";
const uncaught: unknown[] = [];
const onUncaught = (error: unknown) => uncaught.push(error);

beforeAll(async () => {
  process.on("uncaughtException", onUncaught);
  process.on("unhandledRejection", onUncaught);
  server = await startTestServer();
});

afterAll(async () => {
  process.off("uncaughtException", onUncaught);
  process.off("unhandledRejection", onUncaught);
  await server.close();
});

beforeEach(async () => {
  await resetDatabase();
  const user = await createTestUser({ role: "admin", userName: "Ada Admin" });
  admin = await sessionCookieFor(user.id);
  uncaught.length = 0;
});

/** Orders of one line each, a minute apart (newest last), written by SQL. */
async function createOrders(count: number): Promise<string[]> {
  const user = await createTestUser({ userName: "Jane Doe" });
  const { sequelize } = getDb();
  await sequelize.query(
    `INSERT INTO orders (user_id, address_info, total_amount, order_date)
     SELECT :userId, '{"address":"a","city":"c","pincode":"1","phone":"2","notes":""}'::jsonb, 10.00,
            timestamptz '2024-01-01' + n * interval '1 minute'
       FROM generate_series(1, :count) AS n`,
    { replacements: { userId: user.id, count } },
  );
  await sequelize.query(
    `INSERT INTO order_items (order_id, title, image, price, quantity)
     SELECT id, 'Sock', '/images/products/test.svg', 10.00, 1 FROM orders`,
  );
  const rows = await sequelize.query<{ id: string }>(
    `SELECT id FROM orders ORDER BY order_date DESC, id DESC`,
    {
      type: QueryTypes.SELECT,
    },
  );
  return rows.map((row) => row.id);
}

/**
 * Until `restore` is called, reading the lines of order `orderId` fails in
 * the database: order_items is replaced by a view whose quantity raises for it.
 */
async function failReadingLinesOf(orderId: string): Promise<{ restore: () => Promise<void> }> {
  const { sequelize } = getDb();
  await sequelize.query(
    `CREATE FUNCTION export_test_quantity(order_id uuid, quantity int) RETURNS int AS $$
     BEGIN
       IF order_id = '${orderId}' THEN RAISE EXCEPTION 'the disk under order_items is on fire'; END IF;
       RETURN quantity;
     END $$ LANGUAGE plpgsql`,
  );
  await sequelize.query(`ALTER TABLE order_items RENAME TO order_items_real`);
  await sequelize.query(`
    DO $$ DECLARE columns text; BEGIN
      SELECT string_agg(CASE WHEN column_name = 'quantity'
                             THEN 'export_test_quantity(order_id, quantity) AS quantity'
                             ELSE quote_ident(column_name) END, ', ' ORDER BY ordinal_position)
        INTO columns
        FROM information_schema.columns
       WHERE table_schema = current_schema() AND table_name = 'order_items_real';
      EXECUTE 'CREATE VIEW order_items AS SELECT ' || columns || ' FROM order_items_real';
    END $$`);
  return {
    restore: async () => {
      await sequelize.query(`DROP VIEW IF EXISTS order_items`);
      await sequelize.query(`ALTER TABLE order_items_real RENAME TO order_items`);
      await sequelize.query(`DROP FUNCTION export_test_quantity(uuid, int)`);
    },
  };
}

describe("the orders CSV export when the database fails part-way", () => {
  let restore: (() => Promise<void>) | null = null;
  afterEach(async () => {
    await restore?.();
    restore = null;
  });

  it("ends the download with the error marker, and the server goes on answering", async () => {
    const ids = await createOrders(ORDER_EXPORT_BATCH + 50);
    // The first batch is read; the second one's lines fail.
    ({ restore } = await failReadingLinesOf(ids[ORDER_EXPORT_BATCH + 10]!));

    const broken = await send(server.port, { path: "/api/admin/orders/export", headers: { Cookie: admin } });
    expect(broken.status).toBe(200);
    const lines = broken.body.trimEnd().split("\r\n");
    expect(lines.at(-1)).toBe(CSV_ERROR_MARKER);
    // The header, the first batch's lines, then the marker.
    expect(lines).toHaveLength(1 + ORDER_EXPORT_BATCH + 1);

    await restore!();
    restore = null;
    const whole = await send(server.port, { path: "/api/admin/orders/export", headers: { Cookie: admin } });
    expect(whole.status).toBe(200);
    expect(whole.body).not.toContain(CSV_ERROR_MARKER);
    expect(whole.body.trimEnd().split("\r\n")).toHaveLength(1 + ORDER_EXPORT_BATCH + 50);
    expect((await send(server.port, { path: "/api/shop/products/get" })).status).toBe(200);
    expect(uncaught).toEqual([]);
  });

  it("refuses a date PostgreSQL could not take before anything is streamed (400 naming the field)", async () => {
    await createOrders(3);
    const refused = await send(server.port, {
      path: "/api/admin/orders/export?from=0000-01-01",
      headers: { Cookie: admin },
    });
    expect(refused.status).toBe(400);
    const body = JSON.parse(refused.body) as { message: string; errors: Record<string, string[]> };
    expect(body.errors.from?.[0]).toMatch(/from must be a date from 1900-01-01 to 9999-12-31/);

    // The last day there is: every order up to its end, no failure part-way.
    const lastDay = await send(server.port, {
      path: "/api/admin/orders/export?to=9999-12-31",
      headers: { Cookie: admin },
    });
    expect(lastDay.status).toBe(200);
    expect(lastDay.body).not.toContain(CSV_ERROR_MARKER);
    expect(lastDay.body.trimEnd().split("\r\n")).toHaveLength(1 + 3);
    expect(uncaught).toEqual([]);
  });
});
