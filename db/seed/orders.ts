import { QueryTypes } from "sequelize";
import type { Database } from "../../app/models/db.server";

/**
 * `npm run db:seed -- --orders N`: N realistic orders for the reports and their
 * benchmark, written set-based (generate_series and INSERT … SELECT, a batch
 * per statement) instead of N round trips. Spread over the last 400 days at
 * varied hours; several lines each, of the catalogue's real variants at their
 * prices; customers with names and emails. Of the orders: about 80 % paid
 * (delivered, in shipping or still to ship by age), 7 % refunded a few days
 * after capture, the rest awaiting payment (the last day only), cancelled or
 * declined. Capture and refund times are stamped as the checkout stamps them.
 */

const BATCH = 20_000;
const FIRST_NAMES = [
  "Ada",
  "Ben",
  "Chloe",
  "David",
  "Elif",
  "Femi",
  "Grace",
  "Hugo",
  "Ines",
  "Jonas",
  "Kira",
  "Liam",
];
const LAST_NAMES = [
  "Adams",
  "Becker",
  "Costa",
  "Dubois",
  "Evans",
  "Fischer",
  "Garcia",
  "Hansen",
  "Ivanova",
  "Jones",
];

/** A customer per 20 orders (at least 50): a shop's usual mix of one-off and returning buyers. */
async function seedCustomers(db: Database, count: number): Promise<number> {
  const [first] = await db.sequelize.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM users WHERE email LIKE 'customer-%@example.com'`,
    { type: QueryTypes.SELECT },
  );
  const start = (first?.n ?? 0) + 1;
  // No password can match this hash: seeded customers exist to own orders, not to sign in.
  await db.sequelize.query(
    `INSERT INTO users (user_name, email, password_hash, role, created_at, updated_at)
     SELECT (CAST(:first AS text[]))[1 + i % cardinality(CAST(:first AS text[]))] || ' ' ||
            (CAST(:last AS text[]))[1 + (i / 7) % cardinality(CAST(:last AS text[]))],
            'customer-' || i || '@example.com', '!seeded-no-login', 'user',
            now() - interval '420 days', now() - interval '420 days'
       FROM generate_series(CAST(:start AS int), CAST(:end AS int)) AS i`,
    {
      replacements: {
        first: `{${FIRST_NAMES.join(",")}}`,
        last: `{${LAST_NAMES.join(",")}}`,
        start,
        end: start + count - 1,
      },
    },
  );
  return count;
}

async function seedOrderBatch(db: Database, size: number): Promise<void> {
  await db.sequelize.transaction(async (transaction) => {
    const run = (sql: string, replacements: Record<string, unknown> = {}) =>
      db.sequelize.query(sql, { replacements, transaction });
    // Each order: a customer, a moment in the last 400 days (any hour), and a fate.
    await run(
      `CREATE TEMP TABLE seed_orders ON COMMIT DROP AS
       SELECT gen_random_uuid() AS id,
              (SELECT array_agg(id) FROM users WHERE email LIKE 'customer-%@example.com') AS customers,
              now() - random() * interval '400 days' AS placed,
              random() AS fate
         FROM generate_series(1, :size)`,
      { size },
    );
    await run(
      `CREATE TEMP TABLE seed_variants ON COMMIT DROP AS
       SELECT row_number() OVER (ORDER BY v.id) AS n, v.id, v.product_id, v.sku, v.size, v.colour,
              p.title, p.image,
              coalesce(v.sale_price, v.price, CASE WHEN p.sale_price > 0 THEN p.sale_price END, p.price) AS price
         FROM product_variants v JOIN products p ON p.id = v.product_id`,
    );
    // One to four lines per order, the variant picked by a hash so each line differs.
    await run(
      `CREATE TEMP TABLE seed_lines ON COMMIT DROP AS
       SELECT o.id AS order_id, v.*, 1 + abs(hashtext(o.id::text || 'q' || k)) % 3 AS quantity
         FROM seed_orders o
        CROSS JOIN LATERAL generate_series(1, 1 + abs(hashtext(o.id::text)) % 4) AS k
         JOIN seed_variants v
           ON v.n = 1 + abs(hashtext(o.id::text || 'v' || k)) % (SELECT count(*) FROM seed_variants)`,
    );
    await run(
      `INSERT INTO orders (id, user_id, address_info, order_status, payment_status, total_amount,
                           order_date, order_update_date, payment_id, capture_id, captured_at, refunded_at,
                           created_at, updated_at)
       SELECT o.id,
              o.customers[1 + abs(hashtext(o.id::text || 'c')) % cardinality(o.customers)],
              jsonb_build_object('addressId', NULL, 'address', (1 + abs(hashtext(o.id::text)) % 200) || ' Market Street',
                                 'city', 'Springfield', 'pincode', '12345', 'phone', '555-0100', 'notes', ''),
              f.order_status, f.payment_status, t.total, o.placed,
              coalesce(f.refunded_at, f.captured_at, o.placed),
              CASE WHEN f.captured_at IS NOT NULL THEN 'SEED-' || o.id END,
              CASE WHEN f.captured_at IS NOT NULL THEN 'SEEDCAP-' || o.id END,
              f.captured_at, f.refunded_at, o.placed, o.placed
         FROM seed_orders o
         JOIN (SELECT order_id, sum(price * quantity) AS total FROM seed_lines GROUP BY order_id) t
           ON t.order_id = o.id
        CROSS JOIN LATERAL (
          SELECT CASE
                   WHEN o.fate < 0.80 THEN CASE
                     WHEN o.placed < now() - interval '10 days' THEN 'delivered'
                     WHEN o.placed < now() - interval '3 days' THEN 'inShipping'
                     WHEN o.fate < 0.40 THEN 'inProcess' ELSE 'confirmed' END
                   WHEN o.fate < 0.87 THEN 'rejected'
                   WHEN o.fate < 0.95 THEN CASE WHEN o.placed > now() - interval '1 day' THEN 'pending' ELSE 'cancelled' END
                   ELSE 'rejected'
                 END AS order_status,
                 CASE
                   WHEN o.fate < 0.80 THEN 'paid'
                   WHEN o.fate < 0.87 THEN 'refunded'
                   WHEN o.fate < 0.95 THEN 'pending'
                   ELSE 'failed'
                 END AS payment_status,
                 CASE WHEN o.fate < 0.87 THEN o.placed + interval '2 minutes' END AS captured_at,
                 CASE WHEN o.fate >= 0.80 AND o.fate < 0.87
                      THEN least(now(), o.placed + interval '2 minutes' + (o.fate - 0.80) * interval '60 days') END
                   AS refunded_at
        ) f`,
    );
    await run(
      `INSERT INTO order_items (order_id, product_id, variant_id, sku, size, colour, title, image, price, quantity)
       SELECT order_id, product_id, id, sku, size, colour, title, image, price, quantity FROM seed_lines`,
    );
  });
}

export async function seedOrders(db: Database, count: number, log: (message: string) => void = () => {}) {
  const [variants] = await db.sequelize.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM product_variants",
    { type: QueryTypes.SELECT },
  );
  if (!variants?.n) throw new Error("The catalogue is empty: run `npm run db:seed` first, then add orders");
  await seedCustomers(db, Math.max(50, Math.ceil(count / 20)));
  let added = 0;
  while (added < count) {
    const size = Math.min(BATCH, count - added);
    await seedOrderBatch(db, size);
    added += size;
    log(`  ${added}/${count} orders`);
  }
  await db.sequelize.query("ANALYZE orders; ANALYZE order_items; ANALYZE users");
  log(`Added ${count} generated orders`);
}
