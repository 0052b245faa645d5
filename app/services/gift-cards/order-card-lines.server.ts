import { QueryTypes, type Transaction } from "sequelize";
import type { OrderGiftCardLineJson } from "~/lib/shared/gift-cards";
import { centsToDecimal, decimalToNumber, toCents } from "~/lib/shared/money";
import { getDb } from "~/models/db.server";
import { SYSTEM_CHANGE } from "../audit.server";
import type { PricedGiftCardLine } from "./card-lines.server";
import { issueCardIn } from "./cards.server";

/**
 * The gift cards an order buys (docs/decisions/0051): `order_gift_card_items`, the one place an order keeps
 * a card's amount, recipient and message; written with the order, issued in the transaction that confirms
 * its payment, shown by recipient and, once issued, by the card's last four.
 */

/** Inside the order's transaction: the cart's card lines become the order's, in the cart's order. */
export async function recordOrderGiftCardLines(
  orderId: string,
  lines: readonly PricedGiftCardLine[],
  transaction: Transaction,
): Promise<void> {
  if (!lines.length) return;
  await getDb().sequelize.query(
    `INSERT INTO order_gift_card_items
       (order_id, position, cart_item_id, amount, recipient_email, recipient_name, message)
     SELECT $1, l.position, l.cart_item_id, l.amount, l.recipient_email, l.recipient_name, l.message
       FROM unnest($2::int[], $3::uuid[], $4::numeric[], $5::text[], $6::text[], $7::text[])
            AS l(position, cart_item_id, amount, recipient_email, recipient_name, message)`,
    {
      bind: [
        orderId,
        lines.map((_line, index) => index),
        lines.map((line) => line.id),
        lines.map((line) => centsToDecimal(line.cents)),
        lines.map((line) => line.recipientEmail),
        lines.map((line) => line.recipientName),
        lines.map((line) => line.message),
      ],
      transaction,
    },
  );
}

/**
 * Inside the transaction that confirms the order's payment (the order row locked, so two confirmations take
 * turns and the second finds the cards issued): each line not yet issued issues its card, whose mail (the full
 * code, the buyer's name and message) goes to the recipient through the outbox, and its cart line leaves the
 * cart it was bought from.
 */
export async function issueOrderGiftCards(orderId: string, transaction: Transaction): Promise<void> {
  const { sequelize } = getDb();
  const lines = await sequelize.query<{
    id: string;
    cartItemId: string | null;
    amount: string;
    recipientEmail: string;
    recipientName: string | null;
    message: string | null;
    buyerName: string | null;
  }>(
    `SELECT l.id, l.cart_item_id AS "cartItemId", l.amount, l.recipient_email AS "recipientEmail",
            l.recipient_name AS "recipientName", l.message, u.user_name AS "buyerName"
       FROM order_gift_card_items l
       JOIN orders o ON o.id = l.order_id LEFT JOIN users u ON u.id = o.user_id
      WHERE l.order_id = $1 AND l.card_id IS NULL
      ORDER BY l.position
        FOR UPDATE OF l`,
    { bind: [orderId], type: QueryTypes.SELECT, transaction },
  );
  for (const line of lines) {
    const card = await issueCardIn(
      transaction,
      {
        cents: toCents(line.amount),
        recipientEmail: line.recipientEmail,
        recipientName: line.recipientName,
        senderName: line.buyerName,
        message: line.message,
        orderId,
        reason: `Bought with order ${orderId}`,
      },
      SYSTEM_CHANGE,
    );
    await sequelize.query(`UPDATE order_gift_card_items SET card_id = $2 WHERE id = $1`, {
      bind: [line.id, card._id],
      transaction,
    });
  }
  const bought = lines.flatMap((line) => (line.cartItemId ? [line.cartItemId] : []));
  if (bought.length) {
    await sequelize.query(`DELETE FROM cart_gift_card_items WHERE id = ANY($1::uuid[])`, {
      bind: [bought],
      transaction,
    });
  }
}

/** Each order's card lines as its JSON lists them (one query for all the orders). */
export async function orderGiftCardLinesOf(
  orderIds: readonly string[],
): Promise<Map<string, OrderGiftCardLineJson[]>> {
  const byOrder = new Map<string, OrderGiftCardLineJson[]>();
  if (!orderIds.length) return byOrder;
  const rows = await getDb().sequelize.query<{
    orderId: string;
    id: string;
    amount: string;
    recipientEmail: string;
    recipientName: string | null;
    message: string | null;
    last4: string | null;
  }>(
    `SELECT l.order_id AS "orderId", l.id, l.amount, l.recipient_email AS "recipientEmail",
            l.recipient_name AS "recipientName", l.message, a.last4
       FROM order_gift_card_items l LEFT JOIN stored_value_accounts a ON a.id = l.card_id
      WHERE l.order_id = ANY($1::uuid[])
      ORDER BY l.order_id, l.position`,
    { bind: [orderIds], type: QueryTypes.SELECT },
  );
  for (const { orderId, id, amount, ...row } of rows) {
    const list = byOrder.get(orderId) ?? [];
    list.push({ _id: id, amount: decimalToNumber(amount), ...row });
    byOrder.set(orderId, list);
  }
  return byOrder;
}
