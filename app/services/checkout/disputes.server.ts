import { QueryTypes, type Transaction } from "sequelize";
import { conflict } from "~/lib/server/errors.server";
import { getDb } from "~/models/db.server";

/**
 * A payment dispute (a chargeback) holds the order's money at the provider
 * until it is resolved: the shop must not send any of it back meanwhile, or
 * the shopper could be paid twice, by the refund and by the dispute.
 */

export const DISPUTE_OPEN_MESSAGE =
  "A payment dispute is open for this order: refunds and return receipts wait until it is resolved";

/** Inside `transaction` (the order locked): 409 while the order's dispute is open. */
export async function assertNoOpenDispute(orderId: string, transaction: Transaction): Promise<void> {
  const [row] = await getDb().sequelize.query<{ disputeStatus: string | null }>(
    `SELECT dispute_status AS "disputeStatus" FROM orders WHERE id = :orderId`,
    { replacements: { orderId }, type: QueryTypes.SELECT, transaction },
  );
  if (row?.disputeStatus === "open") throw conflict(DISPUTE_OPEN_MESSAGE);
}
