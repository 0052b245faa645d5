import type { Transaction } from "sequelize";
import type { CheckoutPaymentsView } from "~/lib/shared/gift-card-view";
import { centsToNumber } from "~/lib/shared/money";
import { payableByBalancesCents } from "~/lib/shared/gift-cards";
import { allocateOverBalances } from "~/lib/shared/payment-split";
import { isGuestCart, type CartOwner } from "../cart-owner.server";
import { cartBalancesToSpend } from "./cart-cards.server";
import type { BalanceToSpend } from "./order-payments.server";
import { storeCreditToSpend } from "./store-credit.server";

/**
 * What pays an order of a cart (docs/decisions/0049): the order `create` spends the balances in, and the
 * checkout page's view of the same split, so that the page shows what the order will take.
 */

/** The balances an order of the owner's cart spends, in order: store credit first (when asked; guests hold none), then the cart's cards as applied. */
export async function balancesToSpend(
  owner: CartOwner,
  cartId: string | null,
  useStoreCredit: boolean,
  transaction?: Transaction,
): Promise<BalanceToSpend[]> {
  return [
    ...(useStoreCredit && !isGuestCart(owner) ? await storeCreditToSpend(owner, transaction) : []),
    ...(await cartBalancesToSpend(cartId, transaction)),
  ];
}

/**
 * The checkout page's payments for an order's `money`: each applied card and the store credit with what it
 * would pay (the same allocation `create` plans with), and the rest PayPal is asked for. The credit is offered
 * whenever the shopper holds some, used or not.
 */
export async function checkoutPayments(
  owner: CartOwner,
  cartId: string | null,
  money: { totalCents: number; giftCardCents: number },
  useStoreCredit: boolean,
): Promise<CheckoutPaymentsView> {
  const offered = await balancesToSpend(owner, cartId, true);
  const spent = offered.filter((balance) => useStoreCredit || balance.method !== "storeCredit");
  // Gift cards cannot pay for gift cards: the balances pay what `create` lets them, the rest goes to PayPal.
  const { parts } = allocateOverBalances(
    payableByBalancesCents(money),
    spent.map((balance) => balance.balanceCents),
  );
  const restCents = money.totalCents - parts.reduce((sum, part) => sum + part, 0);
  const paid = (index: number) => centsToNumber(parts[index]!);
  const credit = offered.find((balance) => balance.method === "storeCredit");
  const creditIndex = spent.findIndex((balance) => balance.method === "storeCredit");
  return {
    giftCards: spent.flatMap((balance, index) =>
      balance.method === "giftCard"
        ? [
            {
              last4: balance.last4!,
              balance: centsToNumber(balance.balanceCents),
              amountApplied: paid(index),
            },
          ]
        : [],
    ),
    storeCredit: credit
      ? {
          available: centsToNumber(credit.balanceCents),
          used: creditIndex >= 0,
          amountApplied: creditIndex >= 0 ? paid(creditIndex) : 0,
        }
      : null,
    paypalAmount: centsToNumber(restCents),
  };
}
