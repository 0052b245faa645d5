import { QueryTypes, type Transaction } from "sequelize";
import { badRequest } from "~/lib/server/errors.server";
import {
  buyGiftCardSchema,
  GIFT_CARD_BUY_TEXT,
  giftCardAmountsText,
  type CartGiftCardLineJson,
} from "~/lib/shared/gift-cards";
import { centsToDecimal, decimalToNumber, toCents } from "~/lib/shared/money";
import { fieldErrorsOf } from "~/lib/shared/schemas";
import { getDb } from "~/models/db.server";
import type { CartOwner } from "../cart-owner.server";
import { openCart } from "../cart-lines.server";
import { getStoreSettings } from "../store-settings.server";

/**
 * Gift cards bought in the cart (API.md, "Gift cards and store credit"; docs/decisions/0051): lines of
 * their own table beside the clothes, with no stock, tax or delivery. The cart's reads (cart.server.ts),
 * its pricing (checkout/pricing.server.ts) and the order's lines take them from here.
 */

/** A card line as the cart's reads select it (`json_build_object` of GIFT_CARD_LINE_JSON_FIELDS over `l`). */
export interface GiftCardLineRow {
  id: string;
  amount: string | number;
  recipientEmail: string;
  recipientName: string | null;
  message: string | null;
}

/** The columns of a card line `l` as a JSON object's fields (the cart's prepared read takes them inline). */
export const GIFT_CARD_LINE_JSON_FIELDS = `'id', l.id, 'amount', l.amount, 'recipientEmail', l.recipient_email,
  'recipientName', l.recipient_name, 'message', l.message`;

export function cartGiftCardLineJson(row: GiftCardLineRow): CartGiftCardLineJson {
  const amount = decimalToNumber(row.amount);
  return {
    _id: row.id,
    giftCard: {
      amount,
      recipientEmail: row.recipientEmail,
      recipientName: row.recipientName,
      message: row.message,
    },
    title: GIFT_CARD_BUY_TEXT.lineTitle,
    price: amount,
    quantity: 1,
  };
}

/** A cart's card lines with their amounts in cents, in the order added. */
export interface PricedGiftCardLine {
  id: string;
  cents: number;
  recipientEmail: string;
  recipientName: string | null;
  message: string | null;
}

export async function readCartGiftCardLines(
  cartId: string,
  transaction?: Transaction,
): Promise<PricedGiftCardLine[]> {
  const rows = await getDb().sequelize.query<Omit<GiftCardLineRow, "amount"> & { amount: string }>(
    `SELECT l.id, l.amount, l.recipient_email AS "recipientEmail", l.recipient_name AS "recipientName", l.message
       FROM cart_gift_card_items l WHERE l.cart_id = $1 ORDER BY l.created_at, l.id`,
    { bind: [cartId], type: QueryTypes.SELECT, transaction },
  );
  return rows.map(({ amount, ...row }) => ({ ...row, cents: toCents(amount) }));
}

/**
 * Adds a gift card to the owner's cart (made on first use): `{ amount, recipientEmail, recipientName?,
 * message? }`. 400 when cards are not sold (the owner's `giftCardAmounts` is empty), for an amount not on
 * the list, and for invalid fields (`errors` names them). Answers the cart's id (a visitor's first add
 * makes it) and the line's.
 */
export async function addGiftCardToCart(
  owner: CartOwner,
  input: unknown,
): Promise<{ cartId: string; lineId: string }> {
  const { giftCardAmounts } = await getStoreSettings();
  if (!giftCardAmounts.length) throw badRequest(GIFT_CARD_BUY_TEXT.notSold);
  const parsed = buyGiftCardSchema.safeParse(input);
  if (!parsed.success) {
    const errors = fieldErrorsOf(parsed.error);
    throw badRequest(Object.values(errors).flat()[0] ?? GIFT_CARD_BUY_TEXT.amountRequired, errors);
  }
  const { amount, recipientEmail, recipientName, message } = parsed.data;
  if (!giftCardAmounts.some((offered) => toCents(offered) === amount)) {
    const text = giftCardAmountsText(giftCardAmounts);
    throw badRequest(text, { amount: [text] });
  }
  const { sequelize } = getDb();
  return sequelize.transaction(async (transaction) => {
    const cartId = await openCart(owner, transaction);
    const [line] = await sequelize.query<{ id: string }>(
      `INSERT INTO cart_gift_card_items (cart_id, amount, recipient_email, recipient_name, message)
       VALUES ($1, $2, $3, $4, $5) RETURNING id`,
      {
        bind: [cartId, centsToDecimal(amount!), recipientEmail, recipientName || null, message || null],
        type: QueryTypes.SELECT,
        transaction,
      },
    );
    return { cartId, lineId: line!.id };
  });
}
