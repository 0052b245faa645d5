import { QueryTypes, type Transaction } from "sequelize";
import { badRequest, notFound } from "~/lib/server/errors.server";
import {
  appliedGiftCards,
  GIFT_CARD_BUY_TEXT,
  GIFT_CARD_TEXT,
  GIFT_CARDS_PER_CART,
  type CartGiftCardView,
} from "~/lib/shared/gift-cards";
import { centsToNumber, toCents } from "~/lib/shared/money";
import { holdsCardsAlone } from "~/lib/shared/gift-card-view";
import { getDb } from "~/models/db.server";
import { cartOwnerMatch, type CartOwner } from "../cart-owner.server";
import { getCart, type CartJson } from "../cart.server";
import { priceCart } from "../checkout/pricing.server";
import { CHECKOUT_TEXT } from "../checkout/refusals.server";
import { findCardByCode } from "./cards.server";
import { spendableCents } from "./ledger.server";
import type { BalanceToSpend } from "./order-payments.server";

/**
 * Gift cards applied to a cart (API.md, "Gift cards and store credit"): at most five, in the order applied;
 * the checkout spends them in that order. Each change locks the cart row first, as every writer of a cart does.
 */

interface AppliedRow {
  accountId: string;
  last4: string;
  balance: string;
  disabled: boolean;
  expiresAt: Date | null;
}

async function appliedCards(cartId: string, transaction?: Transaction): Promise<AppliedRow[]> {
  return getDb().sequelize.query<AppliedRow>(
    `SELECT a.id AS "accountId", a.last4, a.balance, a.disabled, a.expires_at AS "expiresAt"
       FROM cart_gift_cards g JOIN stored_value_accounts a ON a.id = g.account_id
      WHERE g.cart_id = $1 ORDER BY g.added_at, a.id`,
    { bind: [cartId], type: QueryTypes.SELECT, transaction },
  );
}

async function lockCart(owner: CartOwner, transaction: Transaction): Promise<string | null> {
  const match = cartOwnerMatch(owner, "c", "$1");
  if (match.value === null) return null;
  const [cart] = await getDb().sequelize.query<{ id: string }>(
    `SELECT c.id FROM carts c WHERE ${match.where} FOR UPDATE`,
    { bind: [match.value], type: QueryTypes.SELECT, transaction },
  );
  return cart?.id ?? null;
}

/** Whether the cart holds gift cards to buy and nothing else, which a card could not pay for. */
async function holdsCardsOnly(cartId: string, transaction: Transaction): Promise<boolean> {
  const [row] = await getDb().sequelize.query<{ clothes: number; cards: number }>(
    `SELECT (SELECT count(*)::int FROM cart_items WHERE cart_id = $1) AS clothes,
            (SELECT count(*)::int FROM cart_gift_card_items WHERE cart_id = $1) AS cards`,
    { bind: [cartId], type: QueryTypes.SELECT, transaction },
  );
  return row !== undefined && holdsCardsAlone(row);
}

/**
 * Puts the card a code names on the owner's cart (a wrong code: 404, counted by the wrong-code limits).
 * 400 for an empty cart, a cart of gift cards alone (cards cannot pay for cards), a card that can pay nothing,
 * or a sixth card; a card already applied stays as it is.
 */
export async function applyGiftCardToCart(
  owner: CartOwner,
  code: unknown,
  who: { clientKey: string; userId: string | null },
): Promise<void> {
  // The lookup (and its limits, on their own connection) before the cart's transaction: rule 9.
  const card = await findCardByCode(code, who);
  if (spendableCents(card) === 0)
    throw badRequest(GIFT_CARD_TEXT.nothingLeft, { code: [GIFT_CARD_TEXT.nothingLeft] });
  await getDb().sequelize.transaction(async (transaction) => {
    const cartId = await lockCart(owner, transaction);
    if (!cartId) throw badRequest(CHECKOUT_TEXT.emptyCart);
    if (await holdsCardsOnly(cartId, transaction)) {
      throw badRequest(GIFT_CARD_BUY_TEXT.cardsForCards, { code: [GIFT_CARD_BUY_TEXT.cardsForCards] });
    }
    const applied = await appliedCards(cartId, transaction);
    if (applied.some((row) => row.accountId === card.id)) return;
    if (applied.length >= GIFT_CARDS_PER_CART)
      throw badRequest(GIFT_CARD_TEXT.tooMany, { code: [GIFT_CARD_TEXT.tooMany] });
    await getDb().sequelize.query(`INSERT INTO cart_gift_cards (cart_id, account_id) VALUES ($1, $2)`, {
      bind: [cartId, card.id],
      transaction,
    });
  });
}

/** Takes the card ending `last4` off the owner's cart (404 when none is on it). */
export async function removeGiftCardFromCart(owner: CartOwner, last4: unknown): Promise<void> {
  const ending = typeof last4 === "string" ? last4.trim().toUpperCase() : "";
  await getDb().sequelize.transaction(async (transaction) => {
    const cartId = await lockCart(owner, transaction);
    const [removed] = cartId
      ? await getDb().sequelize.query<{ accountId: string }>(
          `DELETE FROM cart_gift_cards g USING stored_value_accounts a
            WHERE g.cart_id = $1 AND a.id = g.account_id AND a.last4 = $2 RETURNING g.account_id AS "accountId"`,
          { bind: [cartId, ending], type: QueryTypes.SELECT, transaction },
        )
      : [];
    if (!removed) throw notFound(GIFT_CARD_TEXT.notFound);
  });
}

/** The cart's cards as the checkout spends them, in order, each with what it can pay now. */
export async function cartBalancesToSpend(
  cartId: string | null,
  transaction?: Transaction,
): Promise<BalanceToSpend[]> {
  if (!cartId) return [];
  return (await appliedCards(cartId, transaction)).map((row) => ({
    accountId: row.accountId,
    method: "giftCard" as const,
    last4: row.last4,
    balanceCents: spendableCents({ ...row, balanceCents: toCents(row.balance) }),
  }));
}

/** The cart's cards with what each would pay of `totalCents` (`giftCards` of the cart's JSON). */
export async function cartGiftCardsJson(
  cartId: string | null,
  totalCents: number,
): Promise<CartGiftCardView[]> {
  const balances = await cartBalancesToSpend(cartId);
  return appliedGiftCards(
    balances.map((balance) => ({ last4: balance.last4!, balance: centsToNumber(balance.balanceCents) })),
    totalCents,
  );
}

/**
 * The cart as the gift card calls answer it: the cart's JSON and its cards, each with what it would pay of
 * the cart's total as priced now (before an address: without tax; the checkout spends them on the taxed total).
 */
export async function cartWithGiftCards(
  owner: CartOwner,
): Promise<CartJson & { giftCards: CartGiftCardView[] }> {
  const [cart, pricing] = await Promise.all([getCart(owner), priceCart(owner, {})]);
  return { ...cart, giftCards: await cartGiftCardsJson(pricing.cartId, pricing.money.totalCents) };
}
