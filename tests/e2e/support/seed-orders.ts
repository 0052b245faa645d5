import path from "node:path";
import pg from "pg";
import { startEmbeddedPostgres } from "../../../app/models/embedded-postgres.server";

/**
 * Orders for end-to-end tests. There is no checkout yet, so tests write
 * orders straight into the e2e server's database (the same rows a checkout
 * will write), from the test process: nothing of this ships in the app.
 * The database is the embedded cluster under E2E_DATA_DIR that the e2e
 * server started (reused, not started again), or `shop_e2e` on DATABASE_URL.
 */

async function databaseUrl(): Promise<string> {
  if (process.env.DATABASE_URL) {
    const url = new URL(process.env.DATABASE_URL);
    url.pathname = "/shop_e2e";
    return url.toString();
  }
  const dataDir = path.resolve(process.env.E2E_DATA_DIR ?? ".data-e2e");
  const embedded = await startEmbeddedPostgres({ dataDir });
  return embedded.url;
}

export async function withShopDatabase<T>(task: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: await databaseUrl() });
  await client.connect();
  try {
    return await task(client);
  } finally {
    await client.end();
  }
}

interface SeededOrder {
  id: string;
  totalAmount: string;
  items: { title: string; price: string; quantity: number }[];
}

/**
 * A paid-for-looking order of the demo shopper for `count` catalogue products
 * (quantity 2 of the first, 1 of the others), dated `daysAgo` days back.
 */
export async function seedOrder(
  options: { shopperEmail?: string; status?: string; count?: number; daysAgo?: number } = {},
): Promise<SeededOrder> {
  return withShopDatabase(async (client) => {
    const user = await client.query<{ id: string }>("SELECT id FROM users WHERE email = $1", [
      options.shopperEmail ?? "shopper@example.com",
    ]);
    const userId = user.rows[0]?.id;
    if (!userId) throw new Error("The demo shopper is missing from the e2e database");
    const products = await client.query<{ id: string; title: string; image: string; price: string }>(
      `SELECT id, title, image, effective_price::text AS price FROM products ORDER BY title LIMIT $1`,
      [options.count ?? 2],
    );
    const items = products.rows.map((product, index) => ({ ...product, quantity: index === 0 ? 2 : 1 }));
    const cents = items.reduce((sum, item) => sum + Math.round(Number(item.price) * 100) * item.quantity, 0);
    const totalAmount = (cents / 100).toFixed(2);
    const date = new Date(Date.now() - (options.daysAgo ?? 0) * 86_400_000);
    await client.query("BEGIN");
    try {
      const order = await client.query<{ id: string }>(
        `INSERT INTO orders (user_id, address_info, order_status, payment_method, payment_status,
                             total_amount, order_date, order_update_date)
         VALUES ($1, $2, $3, 'paypal', 'paid', $4, $5, $5) RETURNING id`,
        [
          userId,
          JSON.stringify({
            addressId: null,
            address: "12 Harbour Street",
            city: "Portsmouth",
            pincode: "PO1 3AX",
            phone: "+44 23 9200 0000",
            notes: "Leave with the neighbour",
          }),
          options.status ?? "pending",
          totalAmount,
          date,
        ],
      );
      const orderId = order.rows[0]!.id;
      for (const item of items) {
        await client.query(
          `INSERT INTO order_items (order_id, product_id, title, image, price, quantity)
           VALUES ($1, $2, $3, $4, $5, $6)`,
          [orderId, item.id, item.title, item.image, item.price, item.quantity],
        );
      }
      await client.query("COMMIT");
      return {
        id: orderId,
        totalAmount,
        items: items.map(({ title, price, quantity }) => ({ title, price, quantity })),
      };
    } catch (error) {
      await client.query("ROLLBACK");
      throw error;
    }
  });
}
