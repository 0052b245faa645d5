import { QueryTypes, Transaction } from "sequelize";
import { badRequest, conflict, notFound, unauthorized } from "~/lib/server/errors.server";
import { MAX_WAITING_ALERTS, STOCK_ALERT_TEXT, type StockAlertJson } from "~/lib/shared/stock-alerts";
import { isUuid } from "~/lib/shared/uuid";
import { chooseMessage } from "~/lib/shared/variants";
import { getDb } from "~/models/db.server";

/**
 * A shopper's back-in-stock alerts (API.md "Back-in-stock alerts and the
 * wishlist"). An alert waits for one sold-out variant; the database fires it
 * when that variant's stock goes from 0 to above 0, on whatever path
 * (db/migrations/0032-stock-alerts-wishlist.ts), and the mail sender mails it
 * once (mail/stock-alert-mails.server.ts). Every function takes the session
 * user's id: somebody else's alert answers 404 like an unknown one.
 */

const PRODUCT_NOT_FOUND = "Product not found";

interface AlertRow {
  id: string;
  productId: string;
  variantId: string;
  title: string;
  size: string | null;
  colour: string | null;
  status: StockAlertJson["status"];
  createdAt: Date;
  notifiedAt: Date | null;
}

const ALERT_COLUMNS = `a.id, a.product_id AS "productId", a.variant_id AS "variantId", p.title, v.size, v.colour,
       a.status, a.created_at AS "createdAt", a.notified_at AS "notifiedAt"`;
const ALERT_JOIN = `JOIN product_variants v ON v.id = a.variant_id JOIN products p ON p.id = a.product_id`;

function toJson(row: AlertRow): StockAlertJson {
  return {
    _id: row.id,
    productId: row.productId,
    variantId: row.variantId,
    title: row.title,
    size: row.size,
    colour: row.colour,
    status: row.status,
    createdAt: new Date(row.createdAt).toISOString(),
    notifiedAt: row.notifiedAt ? new Date(row.notifiedAt).toISOString() : null,
  };
}

/** The caller's alerts, waiting ones first, newest first within each. */
export async function listStockAlerts(userId: string): Promise<StockAlertJson[]> {
  if (!isUuid(userId)) return [];
  const rows = await getDb().sequelize.query<AlertRow>(
    `SELECT ${ALERT_COLUMNS} FROM stock_alerts a ${ALERT_JOIN}
      WHERE a.user_id = :userId
      ORDER BY a.status = 'waiting' DESC, a.created_at DESC, a.id`,
    { replacements: { userId }, type: QueryTypes.SELECT },
  );
  return rows.map(toJson);
}

interface VariantRow {
  id: string;
  size: string | null;
  colour: string | null;
  totalStock: number;
}

/**
 * The variant an alert is for: `variantId`, or the product's only variant.
 * Read under a share lock of the variant's row, so that a restock either
 * commits first (this sees its stock and refuses) or waits for this alert to
 * commit (its trigger then sees the alert and fires it): none falls between.
 */
async function lockAlertVariant(productId: unknown, variantId: unknown, transaction: Transaction) {
  if (!isUuid(productId)) throw notFound(PRODUCT_NOT_FOUND);
  if (variantId !== undefined && variantId !== null && variantId !== "" && !isUuid(variantId))
    throw notFound(PRODUCT_NOT_FOUND);
  const variants = await getDb().sequelize.query<VariantRow>(
    `SELECT v.id, v.size, v.colour, v.total_stock AS "totalStock"
       FROM product_variants v WHERE v.product_id = :productId
      ORDER BY v.position, v.id`,
    { replacements: { productId }, type: QueryTypes.SELECT, transaction },
  );
  if (!variants.length) throw notFound(PRODUCT_NOT_FOUND);
  const wanted = isUuid(variantId) ? variantId : variants.length === 1 ? variants[0]!.id : null;
  if (!wanted) throw badRequest(chooseMessage(variants), { variantId: [chooseMessage(variants)] });
  const [locked] = await getDb().sequelize.query<VariantRow>(
    `SELECT id, size, colour, total_stock AS "totalStock" FROM product_variants
      WHERE id = :wanted AND product_id = :productId FOR SHARE`,
    { replacements: { wanted, productId }, type: QueryTypes.SELECT, transaction },
  );
  if (!locked) throw notFound(PRODUCT_NOT_FOUND);
  return locked;
}

/**
 * Puts the caller on the list for a sold-out variant: `created` false when
 * they already were (the existing alert). A variant in stock: 409. At most
 * MAX_WAITING_ALERTS waiting at once: the caller's row is locked, so two
 * requests at once cannot both add the last one.
 */
export async function createStockAlert(
  userId: string,
  input: { productId?: unknown; variantId?: unknown },
): Promise<{ alert: StockAlertJson; created: boolean }> {
  if (!isUuid(userId)) throw unauthorized();
  const { sequelize } = getDb();
  return sequelize.transaction({ isolationLevel: Transaction.ISOLATION_LEVELS.READ_COMMITTED }, async (t) => {
    const user = await sequelize.query("SELECT id FROM users WHERE id = :userId FOR UPDATE", {
      replacements: { userId },
      type: QueryTypes.SELECT,
      transaction: t,
    });
    if (!user.length) throw unauthorized();
    const variant = await lockAlertVariant(input.productId, input.variantId, t);
    const select = async () =>
      (
        await sequelize.query<AlertRow>(
          `SELECT ${ALERT_COLUMNS} FROM stock_alerts a ${ALERT_JOIN}
            WHERE a.user_id = :userId AND a.variant_id = :variantId AND a.status = 'waiting'`,
          { replacements: { userId, variantId: variant.id }, type: QueryTypes.SELECT, transaction: t },
        )
      )[0];
    const existing = await select();
    if (existing) return { alert: toJson(existing), created: false };
    if (variant.totalStock > 0) throw conflict(STOCK_ALERT_TEXT.inStock);
    const [{ waiting }] = (await sequelize.query<{ waiting: number }>(
      `SELECT count(*)::int AS waiting FROM stock_alerts WHERE user_id = :userId AND status = 'waiting'`,
      { replacements: { userId }, type: QueryTypes.SELECT, transaction: t },
    )) as [{ waiting: number }];
    if (waiting >= MAX_WAITING_ALERTS) throw conflict(STOCK_ALERT_TEXT.tooMany);
    await sequelize.query(
      `INSERT INTO stock_alerts (user_id, product_id, variant_id) VALUES (:userId, :productId, :variantId)`,
      { replacements: { userId, productId: input.productId, variantId: variant.id }, transaction: t },
    );
    return { alert: toJson((await select())!), created: true };
  });
}

/** Removes one of the caller's alerts (waiting or notified); 404 for anybody else's. */
export async function deleteStockAlert(userId: string, alertId: unknown): Promise<StockAlertJson> {
  if (!isUuid(userId) || !isUuid(alertId)) throw notFound(STOCK_ALERT_TEXT.notFound);
  const { sequelize } = getDb();
  return sequelize.transaction(async (t) => {
    const [row] = await sequelize.query<AlertRow>(
      `SELECT ${ALERT_COLUMNS} FROM stock_alerts a ${ALERT_JOIN}
        WHERE a.id = :alertId AND a.user_id = :userId FOR UPDATE OF a`,
      { replacements: { alertId, userId }, type: QueryTypes.SELECT, transaction: t },
    );
    if (!row) throw notFound(STOCK_ALERT_TEXT.notFound);
    await sequelize.query("DELETE FROM stock_alerts WHERE id = :alertId", {
      replacements: { alertId },
      transaction: t,
    });
    return toJson(row);
  });
}

/** The unsubscribe link's work: every waiting alert of the shopper goes. Returns how many. */
export async function cancelWaitingAlerts(userId: string): Promise<number> {
  if (!isUuid(userId)) return 0;
  const rows = await getDb().sequelize.query<{ id: string }>(
    `DELETE FROM stock_alerts WHERE user_id = :userId AND status = 'waiting' RETURNING id`,
    { replacements: { userId }, type: QueryTypes.SELECT },
  );
  return rows.length;
}
