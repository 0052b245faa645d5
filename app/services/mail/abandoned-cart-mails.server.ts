import { QueryTypes, type Sequelize, type Transaction } from "sequelize";
import { getConfig } from "~/lib/server/config.server";
import type { AbandonedCartItemJson } from "~/lib/shared/abandoned-carts";
import { lineTotalCents, unitPriceCents } from "~/lib/shared/cart";
import { centsToDecimal, centsToNumber, decimalToNumber, formatPrice } from "~/lib/shared/money";
import { variantPriceSql } from "~/lib/shared/product";
import { productPathWithVariant } from "~/lib/shared/stock-alerts";
import { variantLabel } from "~/lib/shared/variants";
import { getDb } from "~/models/db.server";
import { issueMailLinks } from "../abandoned-carts.server";
import { CURRENT_CONSENT_SQL } from "../marketing-consent.server";
import { getStoreSettings } from "../store-settings.server";
import { enqueueMail } from "./outbox.server";
import { button, escapeHtml, htmlDocument, SHOP_NAME } from "./templates.server";

/**
 * The abandoned-cart mails (API.md, "Abandoned-cart mails"; docs/decisions/0047-abandoned-cart-mails.md),
 * driven by the database, not by a timer of one process: before each round every shop process's mail
 * sender asks which carts are due and writes their mails into the outbox. A cart is due when it has items,
 * its owner's consent is in force, no order from it was paid since its last change, and it has been left
 * alone long enough. The sender claims due carts `FOR NO KEY UPDATE … SKIP LOCKED` (a cart writer waits for
 * the short transaction, another sender passes by) and writes, in one transaction, the `abandoned_carts` row
 * (unique per cart and contents), the links and the outbox mail (deduplicated by row and mail number): each
 * mail exists once, whatever runs beside it.
 */

const BATCH = 50;
const MAX_BATCHES = 20;

interface Batch {
  /** Carts claimed. */
  due: number;
  /** Mails written (a cart another sender mailed meanwhile gets none). */
  mailed: number;
}
/** A cart left longer than this before the shop noticed (mails switched on late) is let be. */
const HORIZON_DAYS = 30;

/**
 * The state of cart `c` the mails ask about: who it mails (the account's email, or for a visitor's cart the
 * email of the newest checkout from it, an abandoned checkout) and its last activity (a change of the cart or
 * a checkout begun from it).
 */
const CART_STATE_FROM = `carts c
  LEFT JOIN users u ON u.id = c.user_id
  LEFT JOIN LATERAL (
    SELECT o.guest_email, o.order_date FROM orders o WHERE o.cart_id = c.id ORDER BY o.order_date DESC LIMIT 1
  ) lo ON true
  CROSS JOIN LATERAL (
    SELECT CASE WHEN c.user_id IS NULL THEN lo.guest_email ELSE u.email END AS email,
           GREATEST(c.updated_at, lo.order_date) AS activity
  ) s`;

/** Still worth a mail: someone to mail, consenting now, and nothing paid from the cart since its last change. */
const STILL_WANTED = `s.email IS NOT NULL
   AND (CASE WHEN c.user_id IS NULL THEN ${CURRENT_CONSENT_SQL.ofGuestEmail("s.email")}
             ELSE ${CURRENT_CONSENT_SQL.ofUser("c.user_id")} END) IS TRUE
   AND NOT EXISTS (SELECT 1 FROM orders o
                    WHERE (o.cart_id = c.id OR o.user_id = c.user_id) AND o.captured_at >= c.updated_at)`;

interface DueCart {
  cartId: string;
  userId: string | null;
  email: string;
  activity: string;
}

interface DueSecond {
  id: string;
  cartId: string;
  email: string;
}

/** A cart line as the mail reads it: the item the back office lists, with today's price pair and stock. */
interface LineRow extends Omit<AbandonedCartItemJson, "price"> {
  price: string;
  salePrice: string | null;
  totalStock: number;
}

const PRICE = variantPriceSql("v", "p");

async function linesOf(cartId: string, transaction: Transaction): Promise<LineRow[]> {
  return getDb().sequelize.query<LineRow>(
    `SELECT ci.product_id AS "productId", ci.variant_id AS "variantId", p.title, v.size, v.colour, ci.quantity,
            ${PRICE.price} AS price, ${PRICE.salePrice} AS "salePrice", v.total_stock AS "totalStock"
       FROM cart_items ci
       JOIN product_variants v ON v.id = ci.variant_id
       JOIN products p ON p.id = ci.product_id
      WHERE ci.cart_id = :cartId
      ORDER BY ci.created_at, ci.id`,
    { replacements: { cartId }, type: QueryTypes.SELECT, transaction },
  );
}

const priced = (line: LineRow) => ({
  price: decimalToNumber(line.price),
  salePrice: decimalToNumber(line.salePrice),
  quantity: line.quantity,
});

/** The mail: the items at today's prices, sold-out sizes marked with the back-in-stock form's link. */
export function abandonedCartMail(input: {
  lines: readonly LineRow[];
  restoreUrl: string;
  unsubscribeUrl: string;
  second: boolean;
}) {
  const { appUrl } = getConfig();
  const subject = input.second
    ? "Still thinking it over? Your cart is saved"
    : "You left something in your cart";
  const rows = input.lines.map((line) => {
    const option = variantLabel(line);
    const name = option ? `${line.title} (${option})` : line.title;
    const soldOut = line.totalStock <= 0;
    const alertUrl = `${appUrl}${productPathWithVariant(line.productId, line.variantId)}`;
    return {
      name,
      soldOut,
      alertUrl,
      quantity: line.quantity,
      price: formatPrice(centsToDecimal(unitPriceCents(priced(line)))),
    };
  });
  const text = [
    "Hello,",
    "",
    `You left these items in your cart at ${SHOP_NAME}:`,
    "",
    ...rows.map((row) =>
      row.soldOut
        ? `- ${row.name} × ${row.quantity}: sold out. Ask to be told when it is back: ${row.alertUrl}`
        : `- ${row.name} × ${row.quantity}: ${row.price} each today`,
    ),
    "",
    `Put them back into your cart: ${input.restoreUrl}`,
    "",
    `You get this mail because you agreed to mails about your cart. Stop them: ${input.unsubscribeUrl}`,
  ].join("\n");
  const list = rows
    .map((row) =>
      row.soldOut
        ? `<li><strong>${escapeHtml(row.name)}</strong> × ${row.quantity}: <strong>sold out</strong>.
<a href="${escapeHtml(row.alertUrl)}">Tell me when it is back</a></li>`
        : `<li><strong>${escapeHtml(row.name)}</strong> × ${row.quantity}: ${escapeHtml(row.price)} each today</li>`,
    )
    .join("\n");
  const html = htmlDocument(
    subject,
    `<p>Hello,</p>
<p>You left these items in your cart at ${SHOP_NAME}:</p>
<ul style="padding-left: 1.2rem;">
${list}
</ul>
${button(input.restoreUrl, "Back to my cart")}
<p style="overflow-wrap: anywhere; word-break: break-all;">Or copy this address into your browser: ${escapeHtml(input.restoreUrl)}</p>
<p style="color: #555; font-size: 0.85rem;">You get this mail because you agreed to mails about your cart.
<a href="${escapeHtml(input.unsubscribeUrl)}">Unsubscribe</a> in one click.</p>`,
  );
  return { subject, text, html };
}

async function enqueueOne(
  row: { id: string; email: string; cartId: string },
  mailNumber: 1 | 2,
  transaction: Transaction,
  lines: readonly LineRow[],
): Promise<void> {
  const links = await issueMailLinks(row.id, transaction);
  const mail = abandonedCartMail({ lines, ...links, second: mailNumber === 2 });
  await enqueueMail(
    {
      kind: "abandoned-cart",
      to: row.email,
      ...mail,
      dedupeKey: `abandoned-cart:${row.id}:${mailNumber}`,
      headers: {
        "List-Unsubscribe": `<${links.unsubscribeUrl}>`,
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
      },
    },
    transaction,
  );
}

function delays() {
  const { firstAfterMs, secondAfterMs } = getConfig().abandonedCarts;
  return {
    firstSeconds: firstAfterMs / 1000,
    secondSeconds: secondAfterMs / 1000,
    gapSeconds: (secondAfterMs - firstAfterMs) / 1000,
    horizonDays: HORIZON_DAYS,
  };
}

/** First mails: one batch of due carts whose contents had no mail yet. Returns how many were mailed. */
async function firstMails(sequelize: Sequelize): Promise<Batch> {
  return sequelize.transaction(async (transaction) => {
    // Whether a cart has items is one probe of the lines' index; asked as `cart_contents_hash(c.id) IS NOT
    // NULL`, the hash was computed for every cart changed within the horizon (half the question's time with
    // 200,000 carts). The hash is computed only where it decides: has this content had its mail?
    const due = await sequelize.query<DueCart>(
      `SELECT c.id AS "cartId", c.user_id AS "userId", s.email, s.activity::text AS activity
         FROM ${CART_STATE_FROM}
        WHERE c.updated_at > now() - make_interval(days => :horizonDays)
          AND s.activity <= now() - make_interval(secs => :firstSeconds)
          AND EXISTS (SELECT 1 FROM cart_items ci WHERE ci.cart_id = c.id)
          AND NOT EXISTS (SELECT 1 FROM abandoned_carts x
                           WHERE x.cart_id = c.id AND x.contents_hash = cart_contents_hash(c.id))
          AND ${STILL_WANTED}
        ORDER BY c.updated_at, c.id
        LIMIT :limit
          FOR NO KEY UPDATE OF c SKIP LOCKED`,
      { replacements: { ...delays(), limit: BATCH }, type: QueryTypes.SELECT, transaction },
    );
    let mailed = 0;
    for (const cart of due) {
      // Read after the lock: no writer can change the lines while it is held (they lock the cart first).
      const lines = await linesOf(cart.cartId, transaction);
      if (!lines.length) continue;
      const items: AbandonedCartItemJson[] = lines.map((line) => ({
        productId: line.productId,
        variantId: line.variantId,
        title: line.title,
        size: line.size,
        colour: line.colour,
        quantity: line.quantity,
        price: centsToNumber(unitPriceCents(priced(line))),
      }));
      const valueCents = lines.reduce((sum, line) => sum + lineTotalCents(priced(line)), 0);
      const [row] = await sequelize.query<{ id: string }>(
        `INSERT INTO abandoned_carts (cart_id, user_id, email, contents_hash, items, value, last_activity_at)
         VALUES (:cartId, :userId, :email, cart_contents_hash(:cartId), :items::jsonb, :value,
                 CAST(:activity AS timestamptz))
         ON CONFLICT (cart_id, contents_hash) DO NOTHING
         RETURNING id`,
        {
          replacements: {
            cartId: cart.cartId,
            userId: cart.userId,
            email: cart.email,
            items: JSON.stringify(items),
            value: centsToDecimal(valueCents),
            // As text: the microseconds the second mail compares with survive the round trip.
            activity: cart.activity,
          },
          type: QueryTypes.SELECT,
          transaction,
        },
      );
      if (!row) continue;
      await enqueueOne({ id: row.id, email: cart.email, cartId: cart.cartId }, 1, transaction, lines);
      mailed += 1;
    }
    return { due: due.length, mailed };
  });
}

/**
 * Second mails: carts mailed once, untouched since (the same last activity and contents), left for
 * ABANDONED_CART_SECOND_AFTER and at least the gap between the two delays after the first mail.
 */
async function secondMails(sequelize: Sequelize): Promise<Batch> {
  return sequelize.transaction(async (transaction) => {
    const due = await sequelize.query<DueSecond>(
      `SELECT x.id, c.id AS "cartId", s.email
         FROM ${CART_STATE_FROM}
         JOIN abandoned_carts x ON x.cart_id = c.id
        WHERE x.mails_sent = 1
          AND s.activity = x.last_activity_at
          AND x.last_activity_at <= now() - make_interval(secs => :secondSeconds)
          AND x.first_mailed_at <= now() - make_interval(secs => :gapSeconds)
          AND cart_contents_hash(c.id) = x.contents_hash
          AND ${STILL_WANTED}
        ORDER BY x.first_mailed_at, x.id
        LIMIT :limit
          FOR NO KEY UPDATE OF x, c SKIP LOCKED`,
      { replacements: { ...delays(), limit: BATCH }, type: QueryTypes.SELECT, transaction },
    );
    for (const row of due) {
      await sequelize.query(
        `UPDATE abandoned_carts SET mails_sent = 2, second_mailed_at = now() WHERE id = :id AND mails_sent = 1`,
        { replacements: { id: row.id }, transaction },
      );
      await enqueueOne(row, 2, transaction, await linesOf(row.cartId, transaction));
    }
    return { due: due.length, mailed: due.length };
  });
}

/** Writes every due abandoned-cart mail into the outbox (none while the owner's switch is off). Returns how many. */
export async function enqueueAbandonedCartMails(sequelize: Sequelize = getDb().sequelize): Promise<number> {
  if (!(await getStoreSettings()).abandonedCartMails) return 0;
  let total = 0;
  for (const batch of [firstMails, secondMails]) {
    // A bounded number of batches per round, so that other mails never wait long behind a backlog.
    for (let round = 0; round < MAX_BATCHES; round += 1) {
      const { due, mailed } = await batch(sequelize);
      total += mailed;
      if (due < BATCH) break;
    }
  }
  return total;
}
