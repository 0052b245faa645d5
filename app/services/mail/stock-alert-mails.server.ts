import { QueryTypes, type Sequelize } from "sequelize";
import { getConfig } from "~/lib/server/config.server";
import { productPathWithVariant } from "~/lib/shared/stock-alerts";
import { variantLabel } from "~/lib/shared/variants";
import { getDb } from "~/models/db.server";
import { unsubscribeUrlFor } from "../stock-alert-links.server";
import { enqueueMail } from "./outbox.server";
import { button, escapeHtml, htmlDocument, SHOP_NAME } from "./templates.server";

/**
 * The back-in-stock mails. The database marks alerts `notified` in the
 * transaction that brings a variant back (migration 0032); a trigger cannot
 * render a mail, so the mail sender calls `enqueueStockAlertMails` before
 * each round: it takes the notified alerts that have no mail yet, writes one
 * outbox mail each and stamps them `mailed_at`, all in one transaction per
 * batch. `FOR UPDATE SKIP LOCKED` lets several senders work side by side;
 * the outbox's dedupe key (the alert's id) keeps any alert from being
 * mailed twice, whatever happens between the two statements.
 */

const BATCH = 100;

interface UnmailedAlert {
  id: string;
  userId: string;
  email: string;
  productId: string;
  variantId: string;
  title: string;
  size: string | null;
  colour: string | null;
}

export function stockAlertMail(input: {
  title: string;
  option: string;
  productLink: string;
  unsubscribeLink: string;
}) {
  const named = input.option ? `${input.title} in ${input.option}` : input.title;
  const subject = `Back in stock: ${named}`;
  const text = [
    "Hello,",
    "",
    `Good news: ${named} is back in stock at ${SHOP_NAME}.`,
    "Stock is limited, so it may sell out again. Buy it here:",
    "",
    input.productLink,
    "",
    "You get this mail once because you asked to be told when it came back.",
    `To stop the back-in-stock mails of every size you are still waiting for: ${input.unsubscribeLink}`,
  ].join("\n");
  const html = htmlDocument(
    subject,
    `<p>Hello,</p>
<p>Good news: <strong>${escapeHtml(named)}</strong> is back in stock at ${SHOP_NAME}.
Stock is limited, so it may sell out again.</p>
${button(input.productLink, "Buy it now")}
<p>Or copy this address into your browser: ${escapeHtml(input.productLink)}</p>
<p style="color: #555; font-size: 0.85rem;">You get this mail once because you asked to be told when it came back.
<a href="${escapeHtml(input.unsubscribeLink)}">Stop the back-in-stock mails</a> of every size you are still waiting for.</p>`,
  );
  return { subject, text, html };
}

/** One batch: returns how many alerts got their mail. */
async function enqueueBatch(sequelize: Sequelize): Promise<number> {
  const { appUrl } = getConfig();
  return sequelize.transaction(async (transaction) => {
    const alerts = await sequelize.query<UnmailedAlert>(
      `SELECT a.id, a.user_id AS "userId", u.email, a.product_id AS "productId", a.variant_id AS "variantId",
              p.title, v.size, v.colour
         FROM stock_alerts a
         JOIN users u ON u.id = a.user_id
         JOIN products p ON p.id = a.product_id
         JOIN product_variants v ON v.id = a.variant_id
        WHERE a.status = 'notified' AND a.mailed_at IS NULL
        ORDER BY a.notified_at, a.id
        LIMIT :limit
        FOR UPDATE OF a SKIP LOCKED`,
      { replacements: { limit: BATCH }, type: QueryTypes.SELECT, transaction },
    );
    for (const alert of alerts) {
      const mail = stockAlertMail({
        title: alert.title,
        option: variantLabel(alert),
        productLink: `${appUrl}${productPathWithVariant(alert.productId, alert.variantId)}`,
        unsubscribeLink: unsubscribeUrlFor(alert.userId),
      });
      await enqueueMail(
        { kind: "stock-alert", to: alert.email, ...mail, dedupeKey: `stock-alert:${alert.id}` },
        transaction,
      );
    }
    if (alerts.length) {
      await sequelize.query(`UPDATE stock_alerts SET mailed_at = now() WHERE id IN (:ids)`, {
        replacements: { ids: alerts.map((alert) => alert.id) },
        transaction,
      });
    }
    return alerts.length;
  });
}

/** Writes the mails of every fired alert still without one into the outbox. Returns how many. */
export async function enqueueStockAlertMails(sequelize: Sequelize = getDb().sequelize): Promise<number> {
  let total = 0;
  for (;;) {
    const count = await enqueueBatch(sequelize);
    total += count;
    if (count < BATCH) return total;
  }
}
