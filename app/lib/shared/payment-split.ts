import { splitByLargestRemainder } from "./order-money";

/**
 * How an order's total is paid by gift cards, store credit and PayPal, and how a refund goes back to them
 * (docs/decisions/0049): two rules, each one function here, in integer cents. Pure and safe in the browser.
 */

/**
 * Spends `balances` in the order given (store credit first, then the cards as applied), each up to what it
 * holds, on `totalCents`. `parts[i]` is what balance i pays; `restCents` is left for PayPal. The parts and
 * the rest add up to the total, and no part exceeds its balance.
 */
export function allocateOverBalances(
  totalCents: number,
  balances: readonly number[],
): { parts: number[]; restCents: number } {
  let rest = totalCents;
  const parts = balances.map((balance) => {
    const part = Math.max(0, Math.min(balance, rest));
    rest -= part;
    return part;
  });
  return { parts, restCents: rest };
}

/**
 * Splits a refund of `refundCents` over an order's payments in proportion to what each paid, rounded by
 * largest remainder so that the parts add up to the refund, and never more to a payment than it has left
 * (`paid[i] - refunded[i]`): a share above that goes, cent by cent, to the payments with room, in order.
 * A refund larger than everything left is the caller's error (it refunds at most what was captured).
 */
export function splitRefund(
  refundCents: number,
  paid: readonly number[],
  refunded: readonly number[] = paid.map(() => 0),
): number[] {
  const room = paid.map((cents, index) => cents - (refunded[index] ?? 0));
  const left = room.reduce((sum, cents) => sum + cents, 0);
  if (refundCents > left)
    throw new Error(`A refund of ${refundCents} is more than the ${left} left to refund`);
  const parts = splitByLargestRemainder(refundCents, paid);
  let excess = 0;
  parts.forEach((part, index) => {
    if (part > room[index]!) {
      excess += part - room[index]!;
      parts[index] = room[index]!;
    }
  });
  for (let index = 0; excess > 0 && index < parts.length; index += 1) {
    const more = Math.min(excess, room[index]! - parts[index]!);
    parts[index]! += more;
    excess -= more;
  }
  return parts;
}
