import type { RefundTo } from "~/lib/shared/gift-cards";
import { splitReturnRefund } from "./gift-cards/refund-split.server";
import { QueryTypes, type Transaction } from "sequelize";
import { AppError, badRequest, conflict, notFound, type FieldErrors } from "~/lib/server/errors.server";
import { getLogger } from "~/lib/server/logger.server";
import { isCaptured, shortOrderNumber } from "~/lib/shared/order-options";
import { returnedUnitsRefund } from "~/lib/shared/order-money";
import {
  ADMIN_RETURN_STATUSES,
  type AdminReturnStatus,
  type ReturnJson,
  type ReturnStatus,
  type ReturnType,
} from "~/lib/shared/returns";
import { isUuid } from "~/lib/shared/uuid";
import { getDb } from "~/models/db.server";
import { recordAudit, SYSTEM_CHANGE, type AuditBy } from "./audit.server";
import { readOrderState, restockReturnedLines } from "./checkout/order-store.server";
import { assertNoOpenDispute } from "./checkout/disputes.server";
import { lockConflictAsAppError } from "./checkout/refusals.server";
import { getReturn, mailReturn, RETURN_NOT_FOUND, RETURN_TEXT, returnableLines } from "./returns.server";
import { finishReturnRefund } from "./return-refund.server";
import { parseTrackingChange } from "./order-status.server";

/** The admin's decisions on a return: approved, rejected, or received (the refund's first step; returns.server.ts tells the flow). */

interface ReturnUpdate {
  status: AdminReturnStatus;
  refundShipping?: boolean;
  trackingNumber?: string | null;
  carrier?: string | null;
}

function parseReturnUpdate(input: unknown): ReturnUpdate {
  const body = (input ?? {}) as Record<string, unknown>;
  const status = ADMIN_RETURN_STATUSES.find((candidate) => candidate === body.status);
  const errors: FieldErrors = {};
  if (!status) errors.status = [`Status must be one of: ${ADMIN_RETURN_STATUSES.join(", ")}`];
  let refundShipping: boolean | undefined;
  const raw = body.refundShipping;
  if (raw === true || raw === "true" || raw === "on") refundShipping = true;
  else if (raw === false || raw === "false") refundShipping = false;
  else if (raw !== undefined && raw !== null && raw !== "")
    errors.refundShipping = ["refundShipping must be true or false"];
  const tracking = parseTrackingChange(body);
  Object.assign(errors, tracking.errors);
  if (status === "shipped" && !tracking.errors.trackingNumber && !tracking.change.trackingNumber)
    errors.trackingNumber = [EXCHANGE_DECISION_TEXT.trackingNeeded];
  if (status === "shipped" && !tracking.errors.carrier && !tracking.change.carrier)
    errors.carrier = [EXCHANGE_DECISION_TEXT.carrierNeeded];
  const problems = Object.values(errors).flat();
  if (problems.length || !status) throw badRequest(problems[0]!, errors);
  return { status, ...(refundShipping === undefined ? {} : { refundShipping }), ...tracking.change };
}

export const EXCHANGE_DECISION_TEXT = {
  trackingNeeded: "Give the replacement parcel's tracking number",
  carrierNeeded: "Choose the replacement parcel's carrier",
  refundNotShipped: "Only an exchange ships a replacement: a refund is received and refunded.",
} as const;

/** From which statuses each move is possible, for each type of return. */
const ALLOWED_FROM: Record<ReturnType, Record<AdminReturnStatus, readonly ReturnStatus[]>> = {
  refund: {
    approved: ["requested"],
    rejected: ["requested", "approved"],
    received: ["requested", "approved"],
    shipped: [],
  },
  exchange: {
    approved: ["requested"],
    rejected: ["requested", "approved"],
    received: ["requested", "approved"],
    shipped: ["received"],
  },
};

/**
 * An admin's decision on a return (API: PUT /api/admin/returns/{id}):
 * approved, rejected, or received (the stock back, the lines refunded through
 * the provider, the delivery too with `refundShipping`). Setting the status
 * it already has changes nothing (two admins receiving the same parcel at
 * once refund it once); other moves backwards answer 409. A received return
 * whose refund could not reach the provider answers 502 and is retried.
 */
export async function updateReturn(
  returnId: string,
  input: unknown,
  by: AuditBy = SYSTEM_CHANGE,
): Promise<ReturnJson> {
  if (!isUuid(returnId)) throw notFound(RETURN_NOT_FOUND);
  const change = parseReturnUpdate(input);
  const [located] = await getDb().sequelize.query<{ orderId: string }>(
    `SELECT order_id AS "orderId" FROM order_returns WHERE id = :returnId`,
    { replacements: { returnId }, type: QueryTypes.SELECT },
  );
  if (!located) throw notFound(RETURN_NOT_FOUND);

  const refundDue = await getDb()
    .sequelize.transaction(async (transaction) => {
      // The house's lock order: the order row, then its return.
      const order = await readOrderState({ id: located.orderId }, transaction);
      if (!order) throw notFound(RETURN_NOT_FOUND);
      const [current] = await getDb().sequelize.query<{
        type: ReturnType;
        status: ReturnStatus;
        refundShipping: boolean;
      }>(
        `SELECT type, status, refund_shipping AS "refundShipping" FROM order_returns
          WHERE id = :returnId FOR UPDATE`,
        { replacements: { returnId }, type: QueryTypes.SELECT, transaction },
      );
      if (!current) throw notFound(RETURN_NOT_FOUND);
      if (current.type === "refund" && change.status === "shipped")
        throw conflict(EXCHANGE_DECISION_TEXT.refundNotShipped);
      const already =
        current.status === change.status || (change.status === "received" && current.status === "refunded");
      if (already) return current.status === "received" && current.type === "refund";
      if (!ALLOWED_FROM[current.type][change.status].includes(current.status))
        throw conflict(RETURN_TEXT.transition(current.status, change.status));

      const refundShipping = current.type === "refund" && (change.refundShipping ?? current.refundShipping);
      const label = `${current.type === "exchange" ? "exchange" : "return"} ${shortOrderNumber(returnId)}`;
      const audit = () =>
        recordAudit(transaction, {
          ...by,
          action: "update",
          entity: "order",
          entityId: order.id,
          changes: { [label]: [current.status, change.status] },
        });
      if (current.type === "exchange") {
        await decideExchange(order.id, returnId, change, transaction);
        await audit();
        await mailReturn(change.status, returnId, transaction);
        return false;
      }
      if (change.status !== "received") {
        await getDb().sequelize.query(
          `UPDATE order_returns SET status = :status, refund_shipping = :refundShipping, decided_at = now()
            WHERE id = :returnId`,
          { replacements: { returnId, status: change.status, refundShipping }, transaction },
        );
        await audit();
        await mailReturn(change.status, returnId, transaction);
        return false;
      }

      if (!isCaptured(order.paymentStatus)) throw conflict(RETURN_TEXT.notPaid);
      await assertNoOpenDispute(order.id, transaction);
      await receiveReturn(order.id, returnId, refundShipping, transaction, by);
      await audit();
      return true;
    })
    .catch(lockConflictAsAppError);

  if (refundDue) {
    try {
      await finishReturnRefund(returnId, by);
    } catch (error) {
      getLogger().warn({ err: error, returnId }, "The return's refund failed and will be retried");
      throw new AppError(502, RETURN_TEXT.refundFailed);
    }
  }
  return getReturn(returnId);
}

/**
 * Inside `transaction` (the order and the return locked): the parcel is back.
 * Each line's refund is fixed (returnedUnitsRefund: its price less its
 * share of the discount, and each unit's tax, the units already received
 * counted first), the
 * delivery's when asked and not refunded before, all within what is left of
 * the capture; the stock goes back to the variants; the return is `received`.
 */
async function receiveReturn(
  orderId: string,
  returnId: string,
  refundShipping: boolean,
  transaction: Transaction,
  by: AuditBy,
): Promise<void> {
  const { sequelize } = getDb();
  const lines = await returnableLines(orderId, transaction);
  const items = await sequelize.query<{
    orderItemId: string;
    quantity: number;
    returnedVariantId: string | null;
  }>(
    `SELECT order_item_id AS "orderItemId", quantity, returned_variant_id AS "returnedVariantId"
       FROM order_return_items WHERE return_id = :returnId`,
    { replacements: { returnId }, type: QueryTypes.SELECT, transaction },
  );
  const [money] = await sequelize.query<{
    totalCents: number;
    refundedCents: number;
    dueCents: number;
    shippingCents: number;
    shippingTaxCents: number;
    pricesIncludeTax: boolean;
    shippingRefunded: boolean;
  }>(
    `SELECT (o.total_amount * 100)::int AS "totalCents", (o.refunded_amount * 100)::int AS "refundedCents",
            (o.shipping_amount * 100)::int AS "shippingCents", o.shipping_tax_cents AS "shippingTaxCents",
            o.prices_include_tax AS "pricesIncludeTax",
            COALESCE((SELECT sum(refund_cents + shipping_refund_cents) FROM order_returns
                       WHERE order_id = o.id AND status = 'received'), 0)::int AS "dueCents",
            EXISTS (SELECT 1 FROM order_returns WHERE order_id = o.id AND shipping_refund_cents > 0
                       AND status IN ('received', 'refunded')) AS "shippingRefunded"
       FROM orders o WHERE o.id = :orderId`,
    { replacements: { orderId }, type: QueryTypes.SELECT, transaction },
  );
  const { pricesIncludeTax } = money!;
  const refunds = items.map((item) => {
    // A replacement refunds its line's price: the line as bought.
    const line = lines.find(
      (candidate) => candidate.id === item.orderItemId && !candidate.returnedVariantId,
    )!;
    const paidLine = {
      unitPriceCents: line.priceCents,
      quantity: line.quantity,
      discountCents: line.discountCents,
      taxCents: line.taxCents,
    };
    return {
      ...item,
      line,
      ...returnedUnitsRefund(paidLine, pricesIncludeTax, line.received, item.quantity),
    };
  });
  const linesCents = refunds.reduce((sum, refund) => sum + refund.cents, 0);
  // A refunded delivery refunds its tax too (added to it, or inside it).
  const shipping = refundShipping && !money!.shippingRefunded;
  const shippingTaxCents = shipping ? money!.shippingTaxCents : 0;
  const shippingCents = shipping ? money!.shippingCents + (pricesIncludeTax ? 0 : shippingTaxCents) : 0;
  const taxRefundCents = refunds.reduce((sum, refund) => sum + refund.taxCents, 0) + shippingTaxCents;
  const left = money!.totalCents - money!.refundedCents - money!.dueCents;
  if (linesCents + shippingCents > left) {
    // The lines' refunds add up to what they paid by construction: reaching this is a bug, never a refund.
    throw new Error(`Return ${returnId} would refund more than is left of order ${orderId}'s capture`);
  }
  await sequelize.query(
    `UPDATE order_return_items ri SET refund_cents = n.cents, tax_refund_cents = n.tax
       FROM unnest(ARRAY[:lineIds]::uuid[], ARRAY[:cents]::int[], ARRAY[:taxes]::int[]) AS n(line, cents, tax)
      WHERE ri.return_id = :returnId AND ri.order_item_id = n.line`,
    {
      replacements: {
        returnId,
        lineIds: refunds.map((refund) => refund.orderItemId),
        cents: refunds.map((refund) => refund.cents),
        taxes: refunds.map((refund) => refund.taxCents),
      },
      transaction,
    },
  );
  await sequelize.query(
    `UPDATE order_returns SET status = 'received', refund_shipping = :refundShipping,
            refund_cents = :linesCents, shipping_refund_cents = :shippingCents,
            tax_refund_cents = :taxRefundCents,
            received_at = now(), decided_at = COALESCE(decided_at, now())
      WHERE id = :returnId`,
    { replacements: { returnId, refundShipping, linesCents, shippingCents, taxRefundCents }, transaction },
  );
  await restockReturnedLines(
    refunds.map((refund) => ({
      productId: refund.line.productId,
      variantId: refund.returnedVariantId ?? refund.line.variantId,
      quantity: refund.quantity,
    })),
    transaction,
  );
  // Last in the lock order (the balances): the cards' and credit's parts go back now, PayPal's at the refund.
  const [owner] = await sequelize.query<{ userId: string | null; refundTo: RefundTo }>(
    `SELECT user_id AS "userId", refund_to AS "refundTo" FROM order_returns WHERE id = :returnId`,
    { replacements: { returnId }, type: QueryTypes.SELECT, transaction },
  );
  await splitReturnRefund(transaction, {
    orderId,
    returnId,
    cents: linesCents + shippingCents,
    refundTo: owner!.refundTo,
    userId: owner!.userId,
    by,
  });
}

/**
 * Inside `transaction` (the order and the exchange locked): an admin's move on an exchange. Rejected: the
 * units held for it go back to the new variants. Received: the units sent back go back to the line's
 * variant, nothing is refunded (`refund_cents` 0). Shipped: the replacement leaves with its tracking.
 */
async function decideExchange(
  orderId: string,
  returnId: string,
  change: ReturnUpdate,
  transaction: Transaction,
): Promise<void> {
  const { sequelize } = getDb();
  if (change.status === "rejected" || change.status === "received") {
    const items = await sequelize.query<{
      productId: string | null;
      variantId: string | null;
      quantity: number;
    }>(
      `SELECT oi.product_id AS "productId",
              ${change.status === "rejected" ? "ri.new_variant_id" : "oi.variant_id"} AS "variantId", ri.quantity
         FROM order_return_items ri JOIN order_items oi ON oi.id = ri.order_item_id
        WHERE ri.return_id = :returnId AND oi.order_id = :orderId`,
      { replacements: { returnId, orderId }, type: QueryTypes.SELECT, transaction },
    );
    await restockReturnedLines(items, transaction);
  }
  const set = {
    approved: "decided_at = now()",
    rejected: "decided_at = now()",
    received: "refund_cents = 0, received_at = now(), decided_at = COALESCE(decided_at, now())",
    shipped: "tracking_number = :trackingNumber, carrier = :carrier, shipped_at = now()",
  }[change.status];
  await sequelize.query(`UPDATE order_returns SET status = :status, ${set} WHERE id = :returnId`, {
    replacements: {
      returnId,
      status: change.status,
      trackingNumber: change.trackingNumber ?? null,
      carrier: change.carrier ?? null,
    },
    transaction,
  });
}
