import path from "node:path";
import { QueryTypes } from "sequelize";
import { settleWorkAfterAnswers } from "../app/lib/server/after-answer.server";
import { closeDb, getDb, setDatabaseUrl, setQueryListener } from "../app/models/db.server";
import { startEmbeddedPostgres } from "../app/models/embedded-postgres.server";
import { removeAbandonedGuestCarts } from "../app/services/guest-cart-cleanup.server";
import {
  claimGuestOrders,
  guestOrdersWaiting,
  requestGuestOrderClaim,
} from "../app/services/guest-order-claims.server";
import { newGuestToken } from "../app/services/guest-order-token.server";
import { getGuestOrder, lookupGuestOrder } from "../app/services/guest-orders.server";
import { enqueueAbandonedCartMails } from "../app/services/mail/abandoned-cart-mails.server";
import { getCart, getCartView } from "../app/services/cart.server";
import { storefrontVersions, updateStoreSettings } from "../app/services/store-settings.server";
import { migrateToLatest } from "../db/migrator";
import { seedOrders } from "../db/seed/orders";
import { seedDemoCatalog, seedLargeCatalog } from "../db/seed/seed";
import { writeResultsSection } from "./results-file";
import { loadAverage } from "./stats";

/**
 * `npm run bench:guest-plans`: the plans of the reads that visitors, guests and the shop's own rounds run
 * since the storefront opened, on a shop of BENCH_PRODUCTS (100,000) generated products beside the demo
 * catalogue, BENCH_ORDERS (20,000) orders of which every other one is a guest's, and BENCH_GUEST_CARTS
 * (20,000) visitors' carts, some a month old. Each read is run through the service a page or a round calls,
 * its statements caught as they are sent, then `EXPLAIN (ANALYZE, BUFFERS)` for a read (`EXPLAIN` alone for a
 * write, which is not run twice): the top plan node, the indexes used, any sequential scan and the time.
 * A read a visitor triggers must not scan a table that grows with the shop. Run on demand, never in CI; its
 * PostgreSQL (BENCH_GUEST_DATA_DIR, default .data-bench-guest) is kept, so only the first run seeds (minutes).
 * Results go to bench/RESULTS.md as "Guest and open-storefront reads at 100,000 products".
 */

const DATA_DIR = path.resolve(process.env.BENCH_GUEST_DATA_DIR ?? ".data-bench-guest");
const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 100_000);
const ORDERS = Number(process.env.BENCH_ORDERS ?? 20_000);
const GUEST_CARTS = Number(process.env.BENCH_GUEST_CARTS ?? 20_000);
const HEADING = "## Guest and open-storefront reads at 100,000 products";

const log = (message: string) => console.log(`[bench:guest-plans] ${message}`);

async function count(table: string): Promise<number> {
  const [row] = await getDb().sequelize.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`, {
    type: QueryTypes.SELECT,
  });
  return row!.n;
}

async function ensureData(): Promise<void> {
  const { sequelize } = getDb();
  if ((await count("products")) === 0) {
    await seedDemoCatalog(getDb(), log);
    await seedLargeCatalog(getDb(), PRODUCTS, log);
  }
  const orders = await count("orders");
  if (orders < ORDERS) await seedOrders(getDb(), ORDERS - orders, log);
  const [guests] = await sequelize.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM orders WHERE user_id IS NULL",
    { type: QueryTypes.SELECT },
  );
  if (guests!.n === 0) {
    // Every other order becomes a guest's: no account, an email of its own, a token's hash. The database
    // refuses to take an order from its account (migration 0045's trigger): the seeding goes round it.
    await sequelize.transaction(async (transaction) => {
      await sequelize.query("SET LOCAL session_replication_role = replica", { transaction });
      await sequelize.query(
        `WITH picked AS (SELECT id, row_number() OVER (ORDER BY id) AS n FROM orders)
         UPDATE orders o
            SET user_id = NULL, guest_email = 'guest-' || (picked.n % 5000) || '@example.com',
                guest_token_hash = encode(sha256(o.id::text::bytea), 'hex')
           FROM picked WHERE picked.id = o.id AND picked.n % 2 = 0`,
        { transaction },
      );
    });
  }
  const guestCarts = await sequelize.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM carts WHERE user_id IS NULL",
    { type: QueryTypes.SELECT },
  );
  if (guestCarts[0]!.n < GUEST_CARTS) {
    // Visitors' carts of the last 60 days, one line each (a product of the generated catalogue).
    await sequelize.query(
      `WITH made AS (
         INSERT INTO carts (user_id, created_at, updated_at)
         SELECT NULL, now() - (n % 60) * interval '1 day', now() - (n % 60) * interval '1 day'
           FROM generate_series(1, :missing) n
         RETURNING id, updated_at
       )
       INSERT INTO cart_items (cart_id, product_id, variant_id, quantity, created_at, updated_at)
       SELECT made.id, v.product_id, v.id, 1, made.updated_at, made.updated_at
         FROM made CROSS JOIN LATERAL (
           SELECT id, product_id FROM product_variants ORDER BY id LIMIT 1 OFFSET (abs(hashtext(made.id::text)) % 1000)
         ) v`,
      { replacements: { missing: GUEST_CARTS - guestCarts[0]!.n } },
    );
  }
  const [consents] = await sequelize.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM marketing_consents",
    {
      type: QueryTypes.SELECT,
    },
  );
  if (consents!.n === 0) {
    // Every customer and every guest email consented once, and each customer has a cart of a day or two
    // ago with one line: the abandoned-cart sender has a shop's worth of consents and carts to look through.
    await sequelize.query(`
      INSERT INTO marketing_consents (user_id, consent, source)
        SELECT id, true, 'account' FROM users WHERE role = 'user';
      INSERT INTO marketing_consents (email, consent, source)
        SELECT DISTINCT guest_email, true, 'checkout' FROM orders WHERE guest_email IS NOT NULL;
      WITH made AS (
        INSERT INTO carts (user_id, created_at, updated_at)
        SELECT u.id, now() - interval '2 days', now() - interval '1 day' FROM users u
         WHERE u.role = 'user' AND NOT EXISTS (SELECT 1 FROM carts c WHERE c.user_id = u.id)
        RETURNING id, updated_at
      )
      INSERT INTO cart_items (cart_id, product_id, variant_id, quantity, created_at, updated_at)
      SELECT made.id, v.product_id, v.id, 1, made.updated_at, made.updated_at
        FROM made CROSS JOIN LATERAL (
          SELECT id, product_id FROM product_variants ORDER BY id LIMIT 1 OFFSET (abs(hashtext(made.id::text)) % 1000)
        ) v;`);
  }
  await sequelize.query("ANALYZE");
}

interface Caught {
  what: string;
  sql: string;
  /** The values of the statement's $1, $2…, when the caller knows them (the log has the text only). */
  bind?: unknown[];
}

/** Runs `task` and keeps the statements it sent, named `what`; `bind`: the values its bound statements took. */
async function catching(
  what: string,
  task: () => Promise<unknown>,
  into: Caught[],
  bind?: unknown[],
): Promise<void> {
  const sent: string[] = [];
  setQueryListener((logged) => {
    const sql = logged.replace(/^Execut\w+ \([^)]*\): /, "").replace(/;\s*$/, "");
    if (!/^(START TRANSACTION|COMMIT|ROLLBACK|SET |SAVEPOINT|RELEASE)/i.test(sql.trim())) sent.push(sql);
  });
  try {
    await task();
    await settleWorkAfterAnswers();
  } finally {
    setQueryListener(undefined);
  }
  into.push(...sent.map((sql) => ({ what, sql, bind })));
}

const namesIn = (plan: string[], pattern: RegExp) => [
  ...new Set(plan.flatMap((line) => [...line.matchAll(pattern)].map((match) => match[1]!))),
];

async function planRow({ what, sql, bind }: Caught): Promise<string> {
  // A read that locks (FOR UPDATE) is run too: it writes nothing, and its locks end with the statement.
  const read =
    /^\s*(SELECT|WITH)/i.test(sql) &&
    !/\b(INSERT|UPDATE|DELETE)\s/i.test(sql.replace(/FOR (NO KEY )?UPDATE/gi, ""));
  const shortSql = sql.replace(/\s+/g, " ").slice(0, 90).replace(/\|/g, "\\|");
  const bound = /\$\d/.test(sql);
  if (bound && !bind) return `| ${what} | \`${shortSql}…\` | bound parameters: not replayed | | | |`;
  const rows = await getDb().sequelize.query<{ "QUERY PLAN": string }>(
    `EXPLAIN ${read ? "(ANALYZE, BUFFERS)" : ""} ${sql}`,
    { type: QueryTypes.SELECT, ...(bound ? { bind } : {}) },
  );
  const plan = rows.map((row) => row["QUERY PLAN"]);
  const indexes = [
    ...new Set([...namesIn(plan, /using (\w+)/gi), ...namesIn(plan, /Bitmap Index Scan on (\w+)/g)]),
  ];
  const seqScans = namesIn(plan, /Seq Scan on (\w+)/g);
  const time = read
    ? (plan.find((line) => line.startsWith("Execution Time")) ?? "").replace("Execution Time: ", "")
    : "not run (a write)";
  const top = (plan[0] ?? "").replace(/\s+\(cost.*$/, "").trim();
  return `| ${what} | \`${shortSql}…\` | ${top} | ${indexes.map((name) => `\`${name}\``).join(", ") || "none"} | ${seqScans.join(", ") || "none"} | ${time} |`;
}

async function main() {
  const embedded = await startEmbeddedPostgres({ dataDir: DATA_DIR, log });
  setDatabaseUrl(embedded.url);
  try {
    await migrateToLatest(getDb().sequelize, log);
    await ensureData();
    await updateStoreSettings({ storefront: "open", guestCheckout: true, abandonedCartMails: true });
    const { sequelize } = getDb();
    const sizes = {
      products: await count("products"),
      orders: await count("orders"),
      guestOrders: (
        await sequelize.query<{ n: number }>("SELECT count(*)::int AS n FROM orders WHERE user_id IS NULL", {
          type: QueryTypes.SELECT,
        })
      )[0]!.n,
      carts: await count("carts"),
      consents: await count("marketing_consents"),
      abandoned: await count("abandoned_carts"),
    };

    // A guest order with a token we know (the stored hash is of it), and a person whose email has guest orders.
    const { token, hash } = newGuestToken();
    const [guest] = await sequelize.query<{ id: string; email: string }>(
      `UPDATE orders SET guest_token_hash = :hash
        WHERE id = (SELECT id FROM orders WHERE user_id IS NULL AND payment_status <> 'pending' ORDER BY id LIMIT 1)
        RETURNING id, guest_email AS email`,
      { replacements: { hash }, type: QueryTypes.SELECT },
    );
    const [person] = await sequelize.query<{ id: string; email: string; userName: string }>(
      `INSERT INTO users (user_name, email, password_hash, role) VALUES ('Plan Person', :email, 'x', 'user')
       ON CONFLICT ((lower(email))) DO UPDATE SET user_name = EXCLUDED.user_name
       RETURNING id, email, user_name AS "userName"`,
      { replacements: { email: guest!.email }, type: QueryTypes.SELECT },
    );
    const user = { id: person!.id, email: person!.email, userName: person!.userName, role: "user" as const };

    // Gift cards to buy in every other cart, and a card (spent) applied to every tenth: what the cart reads join.
    if ((await count("cart_gift_card_items")) === 0) {
      await sequelize.query(
        `INSERT INTO cart_gift_card_items (cart_id, amount, recipient_email)
         SELECT id, 25, 'plans-' || left(id::text, 8) || '@example.com'
           FROM (SELECT id, row_number() OVER (ORDER BY id) AS n FROM carts) c WHERE n % 2 = 0`,
      );
    }
    if ((await count("cart_gift_cards")) === 0) {
      await sequelize.query(
        `WITH cards AS (
           INSERT INTO stored_value_accounts (kind, code_hash, last4, recipient_email)
           SELECT 'giftCard', encode(sha256(id::text::bytea), 'hex'), upper(left(id::text, 4)),
                  'plans-' || left(id::text, 8) || '@example.com'
             FROM (SELECT id, row_number() OVER (ORDER BY id) AS n FROM carts) c WHERE n % 10 = 0
           RETURNING id, code_hash)
         INSERT INTO cart_gift_cards (cart_id, account_id)
         SELECT carts.id, cards.id FROM cards JOIN carts ON encode(sha256(carts.id::text::bytea), 'hex') = cards.code_hash`,
      );
      await sequelize.query(
        "ANALYZE cart_gift_card_items; ANALYZE cart_gift_cards; ANALYZE stored_value_accounts",
      );
    }
    const [visitorCart] = await sequelize.query<{ id: string }>(
      `SELECT c.id FROM carts c JOIN cart_gift_cards g ON g.cart_id = c.id WHERE c.user_id IS NULL
        ORDER BY c.id LIMIT 1`,
      { type: QueryTypes.SELECT },
    );

    const caught: Caught[] = [];
    if (visitorCart) {
      const owner = { guestCartId: visitorCart.id };
      const bind = [visitorCart.id];
      await catching(
        "a visitor's cart as every page reads it (card lines)",
        () => getCartView(owner),
        caught,
        bind,
      );
      await catching(
        "a visitor's cart as the API answers it (card lines, applied cards)",
        () => getCart(owner),
        caught,
        bind,
      );
    }
    await catching("the order's private link", () => getGuestOrder(token), caught);
    await catching(
      "find my order",
      () => lookupGuestOrder({ email: guest!.email, orderId: guest!.id.slice(0, 8).toUpperCase() }, "bench"),
      caught,
    );
    await catching("claim: ask for the link", () => requestGuestOrderClaim(user), caught);
    const [claimMail] = await sequelize.query<{ text: string }>(
      "SELECT text_body AS text FROM mail_outbox WHERE kind LIKE '%claim%' ORDER BY created_at DESC LIMIT 1",
      { type: QueryTypes.SELECT },
    );
    const claimToken = /claim-guest-orders\/([A-Za-z0-9_-]+)/.exec(claimMail?.text ?? "")?.[1];
    if (claimToken) {
      await catching("claim: the link's page", () => guestOrdersWaiting(claimToken, user), caught);
      await catching(
        "claim: join the orders",
        () =>
          claimGuestOrders(claimToken, user, { actor: { id: user.id, userName: user.userName }, ip: null }),
        caught,
      );
    }
    await catching(
      "shared page: settings and catalogue version (ETag, 304)",
      () => storefrontVersions(),
      caught,
    );
    await catching("visitors' carts clean-up", () => removeAbandonedGuestCarts({ maxBatches: 1 }), caught);
    await catching("abandoned-cart sender", () => enqueueAbandonedCartMails(), caught);

    const rows: string[] = [];
    for (const statement of caught) rows.push(await planRow(statement));
    const body = `Run ${new Date().toISOString()} (\`npm run bench:guest-plans\`), load average ${loadAverage()}:
${sizes.products} products, ${sizes.orders} orders (${sizes.guestOrders} guests'), ${sizes.carts} carts,
${sizes.consents} marketing consents, ${sizes.abandoned} carts mailed before this run. Each
statement as the service sent it, then its plan: a read run with \`EXPLAIN (ANALYZE, BUFFERS)\`, a write only
planned.

| Read | Statement | Top node | Indexes | Sequential scans | Time |
| --- | --- | --- | --- | --- | --- |
${rows.join("\n")}
`;
    console.log(body);
    if (process.env.BENCH_WRITE !== "false") await writeResultsSection(HEADING, `${HEADING}\n\n${body}`);
  } finally {
    await closeDb();
    await embedded.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
