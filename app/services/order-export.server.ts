import { QueryTypes } from "sequelize";
import { getDb } from "~/models/db.server";
import {
  itemsOf,
  ORDER_COLUMNS,
  toOrderJson,
  type OrderItemJson,
  type OrderJson,
  type OrderRow,
} from "./orders.server";
import { searchConditions, type OrderSearch } from "./order-search.server";
import { orderGiftCardLinesOf } from "./gift-cards/order-card-lines.server";
import { GIFT_CARD_BUY_TEXT, type OrderGiftCardLineJson } from "~/lib/shared/gift-cards";

/** How many orders the export reads at a time: a batch's lines are one query, and memory stays flat. */
export const ORDER_EXPORT_BATCH = 200;

/** An order line as the CSV export writes it: the order's fields beside the line's. */
export interface OrderExportLine {
  order: OrderJson & { email: string };
  item: OrderItemJson | null;
  /** A gift card the order buys; `item` then describes it as a line of one, with no discount or tax. */
  giftCard: OrderGiftCardLineJson | null;
}

function giftCardAsItem(line: OrderGiftCardLineJson): OrderItemJson {
  return {
    productId: null,
    variantId: null,
    sku: null,
    size: null,
    colour: null,
    title: GIFT_CARD_BUY_TEXT.lineTitle,
    image: "",
    price: line.amount,
    quantity: 1,
    discountAmount: 0,
    taxAmount: 0,
    returnedQuantity: 0,
    exchangedQuantity: 0,
  };
}

/**
 * Every order matching the search, newest first, one line at a time: its clothes,
 * then the gift cards it buys (an order without lines once, with `item` null, so
 * that no order goes missing). Reads
 * `batchSize` orders per query, continuing after the last one read (keyset:
 * order date and id), so that an export of any size holds one batch in
 * memory. Each batch is its own short query: no transaction or connection is
 * held while the client downloads.
 */
export async function* exportOrderLines(
  search: OrderSearch,
  batchSize = ORDER_EXPORT_BATCH,
): AsyncGenerator<OrderExportLine> {
  const { conditions, replacements } = searchConditions(search);
  // The date as PostgreSQL prints it keeps its microseconds, which a JavaScript Date would lose.
  let after: { date: string; id: string } | null = null;
  for (;;) {
    const where = [
      ...conditions,
      ...(after ? ["(o.order_date, o.id) < (:afterDate::timestamptz, :afterId::uuid)"] : []),
    ];
    const rows: (OrderRow & { email: string; cursorDate: string })[] = await getDb().sequelize.query(
      `SELECT ${ORDER_COLUMNS}, COALESCE(u.email, o.guest_email) AS email, o.order_date::text AS "cursorDate"
         FROM orders o LEFT JOIN users u ON u.id = o.user_id
        ${where.length ? `WHERE ${where.join(" AND ")}` : ""}
        ORDER BY o.order_date DESC, o.id DESC
        LIMIT :batchSize`,
      {
        replacements: { ...replacements, batchSize, afterDate: after?.date, afterId: after?.id },
        type: QueryTypes.SELECT,
      },
    );
    if (!rows.length) return;
    const ids = rows.map((row) => row.id);
    const [items, giftCards] = await Promise.all([itemsOf(ids), orderGiftCardLinesOf(ids)]);
    for (const row of rows) {
      const cards = giftCards.get(row.id) ?? [];
      const order = { ...toOrderJson(row, items.get(row.id) ?? [], undefined, cards), email: row.email };
      if (!order.cartItems.length && !cards.length) yield { order, item: null, giftCard: null };
      for (const item of order.cartItems) yield { order, item, giftCard: null };
      for (const giftCard of cards) yield { order, item: giftCardAsItem(giftCard), giftCard };
    }
    if (rows.length < batchSize) return;
    const last = rows[rows.length - 1]!;
    after = { date: last.cursorDate, id: last.id };
  }
}
