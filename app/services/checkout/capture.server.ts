import { setTimeout as sleep } from "node:timers/promises";
import { QueryTypes } from "sequelize";
import { z } from "zod";
import { getDb } from "~/models/db.server";
import { badRequest, notFound } from "~/lib/server/errors.server";
import { centsToNumber, toCents } from "~/lib/shared/money";
import { fieldErrorsOf } from "~/lib/shared/schemas";
import { isUuid } from "~/lib/shared/uuid";
import type { OrderStatus, PaymentStatus } from "~/models/index.server";
import {
  InstrumentDeclinedError,
  PaymentAmountMismatchError,
  PaymentNotApprovedError,
  PaymentOrderNotFoundError,
} from "~/payments/errors.server";
import { getPaymentGateway } from "~/payments/index.server";
import { getOrderForUser, ORDER_NOT_FOUND, orderOwnerMatch, type OrderJson } from "../orders.server";
import { cartOwnerMatch, type CartOwner } from "../cart-owner.server";
import { ownerOfBuyer, type CheckoutBuyer } from "./create.server";
import {
  applyProviderCapture,
  confirmCapture,
  refusal,
  releaseReservation,
  settleFromProvider,
  type Settlement,
} from "./settle.server";
import {
  CHECKOUT_TEXT,
  CheckoutError,
  isBlank,
  lockConflictAsAppError,
  PROVIDER_ID_PATTERN,
} from "./refusals.server";
import {
  cartOwnerOfOrder,
  readOrderState,
  reserveStock,
  shortageMessage,
  updateOrder,
  type OrderState,
  type Shortage,
} from "./order-store.server";
import { getLogger } from "~/lib/server/logger.server";
import { recordCheckoutOutcome, recordCheckoutRefusal } from "~/lib/server/metrics.server";

/**
 * The capture as states (docs/architecture.md, "The checkout as states"):
 *
 * 1. begin, a short transaction: lock the order, check it is payable, reserve
 *    its stock under the products' row locks (in id order, never below zero),
 *    payment_status `capturing` with `capture_started_at`; commit.
 * 2. the provider's capture with no connection or lock held, under an
 *    idempotent request id per attempt (`capture-<order>-<start>`): a retry of
 *    the same attempt after a crash or a lost answer is the same capture; a
 *    new attempt after a decline gets a new id, so the decline is not replayed.
 * 3. settle, a short transaction (settle.server.ts): confirm, or release the
 *    reservation. An answer that never came is read back from the provider;
 *    a crash anywhere leaves `capturing`, which the reconciler settles.
 */

export interface CaptureOrderInput {
  /** Our order id (optional: the provider's order id finds the order too). */
  orderId?: unknown;
  /** The provider's order id: PayPal returns it as `token`. */
  paymentId?: unknown;
  payerId?: unknown;
}

export type CaptureOutcome =
  { status: "paid"; order: OrderJson; alreadyPaid: boolean } | { status: "pending"; order: OrderJson };

/** How long a second request for an order being captured waits for the first one's answer. */
const IN_FLIGHT_WAIT_MS = 10_000;
/** A capture begun longer ago than this has lost its caller (a crash, a dropped request): drive it again. */
const IN_FLIGHT_LIMIT_MS = 60_000;

const PAYER_ID_INVALID = "payerId must be the PayerID from the return URL";

/**
 * The capture call's body as the route validates it (and the OpenAPI document
 * describes it): the provider's order id and, optionally, the payer id from the
 * return URL. The order id is checked apart: a malformed one is as unknown as a
 * made-up one (404).
 */
export const captureBodySchema = z.object({
  paymentId: z
    .string({ message: CHECKOUT_TEXT.paymentIdRequired })
    .trim()
    .regex(PROVIDER_ID_PATTERN, CHECKOUT_TEXT.paymentIdRequired)
    .meta({ description: "The provider's order id (PayPal's `token`)" }),
  payerId: z
    .preprocess(
      (value) => (isBlank(value) ? undefined : value),
      z.string({ message: PAYER_ID_INVALID }).trim().regex(PROVIDER_ID_PATTERN, PAYER_ID_INVALID).optional(),
    )
    .meta({ description: "`PayerID` from the return URL" }),
});

function parseCaptureInput(input: CaptureOrderInput) {
  const parsed = captureBodySchema.safeParse({ paymentId: input.paymentId, payerId: input.payerId });
  if (!parsed.success) {
    const errors = fieldErrorsOf(parsed.error);
    throw badRequest(Object.values(errors).flat()[0] ?? CHECKOUT_TEXT.paymentIdRequired, errors);
  }
  let orderId: string | null = null;
  if (!isBlank(input.orderId)) {
    // A malformed id is as unknown as a made-up one.
    if (!isUuid(input.orderId)) throw notFound(ORDER_NOT_FOUND);
    orderId = input.orderId;
  }
  return { paymentId: parsed.data.paymentId, payerId: parsed.data.payerId ?? null, orderId };
}

type ReservedOrder = OrderState & { paymentId: string; captureRequestId: string };

type Begun =
  | { kind: "paid"; order: OrderState }
  | { kind: "inFlight"; order: OrderState }
  | { kind: "short"; order: OrderState; shortage: Shortage }
  | { kind: "reserved"; order: ReservedOrder };

/** Step 1: one short transaction, no provider call. */
async function beginCapture(owner: CartOwner, paymentId: string, orderId: string | null): Promise<Begun> {
  const { sequelize } = getDb();
  return sequelize
    .transaction(async (transaction): Promise<Begun> => {
      const order = await readOrderState({ paymentId, owner }, transaction);
      if (!order) {
        const match = orderOwnerMatch(owner);
        if (orderId && match.value) {
          const [own] = await sequelize.query<{ id: string }>(
            `SELECT o.id FROM orders o WHERE o.id = :orderId AND ${match.where}`,
            { replacements: { orderId, owner: match.value }, type: QueryTypes.SELECT, transaction },
          );
          if (own) throw badRequest(CHECKOUT_TEXT.paymentMismatch);
        }
        throw notFound(ORDER_NOT_FOUND);
      }
      if (orderId && orderId !== order.id) throw badRequest(CHECKOUT_TEXT.paymentMismatch);
      if (order.paymentStatus === "paid" && order.orderStatus !== "rejected") return { kind: "paid", order };
      if (order.paymentStatus === "capturing") return { kind: "inFlight", order };
      if (
        order.orderStatus !== "pending" ||
        order.paymentStatus === "refunded" ||
        order.paymentStatus === "paid"
      ) {
        throw new CheckoutError(409, CHECKOUT_TEXT.closed, "closed", order.id);
      }
      const shortage = await reserveStock(order.id, transaction);
      if (shortage) return { kind: "short", order, shortage };
      await updateOrder(
        order.id,
        "payment_status = 'capturing', capture_started_at = now()",
        {},
        transaction,
      );
      const capturing = await readOrderState({ id: order.id }, transaction);
      return { kind: "reserved", order: capturing as ReservedOrder };
    })
    .catch(lockConflictAsAppError);
}

/** Step 2 and 3 for an order whose stock is reserved. */
async function captureReserved(
  order: { id: string; paymentId: string; captureRequestId: string; providerAmount: string },
  inputPayerId: string | null,
): Promise<Settlement> {
  let captured;
  try {
    captured = await getPaymentGateway().captureOrder({
      providerOrderId: order.paymentId,
      requestId: order.captureRequestId,
      expectedAmountCents: toCents(order.providerAmount),
      expectedCurrency: "USD",
    });
  } catch (error) {
    if (error instanceof InstrumentDeclinedError) {
      // Declined: retryable. The shopper chooses another way to pay, then captures again (a new attempt).
      await releaseReservation(order.id, { paymentStatus: "failed" });
      return refusal(order.id, 402, error.message, "declined", error.approvalUrl);
    }
    if (error instanceof PaymentNotApprovedError) {
      await releaseReservation(order.id, { paymentStatus: "pending" });
      return refusal(order.id, 409, CHECKOUT_TEXT.notApproved, "notApproved", error.approvalUrl);
    }
    if (error instanceof PaymentAmountMismatchError) {
      const wrong = error.captured;
      if (wrong.captureId) {
        // Money moved, of another amount: confirmCapture refuses it and refunds exactly what was taken.
        return confirmCapture(order.id, { ...wrong, captureId: wrong.captureId, payerId: inputPayerId });
      }
      await releaseReservation(order.id, { paymentStatus: "failed", reject: true });
      return refusal(order.id, 409, CHECKOUT_TEXT.amountMismatch, "amountMismatch");
    }
    if (error instanceof PaymentOrderNotFoundError) {
      await releaseReservation(order.id, { paymentStatus: "pending" });
      throw error;
    }
    // No answer (a timeout, a 5xx, the network): did the money move? Ask. When even that
    // fails, the order stays capturing for a retry or the reconciler.
    const settled = await settleFromProvider(order).catch(() => null);
    if (settled && settled.kind !== "released") return settled;
    throw error;
  }
  return applyProviderCapture(order.id, captured, captured.payerId ?? inputPayerId);
}

/**
 * The stock is short, or the order's discount code ran out. An earlier attempt
 * may have been charged before its answer got lost: such money is confirmed
 * if the reservation succeeds now, else refunded. Otherwise the order is
 * rejected with nothing charged, before any capture.
 */
async function refuseShortage(order: OrderState, shortage: Shortage, inputPayerId: string | null) {
  const provider = await getPaymentGateway()
    .getOrder(order.paymentId!)
    .catch((error: unknown) => {
      if (error instanceof PaymentOrderNotFoundError) return null;
      throw error;
    });
  const capture = provider?.capture;
  if (capture?.status === "COMPLETED") {
    return confirmCapture(order.id, { ...capture, payerId: provider?.payerId ?? inputPayerId });
  }
  if (capture?.status === "PENDING") {
    getLogger().error(
      { orderId: order.id, captureId: capture.captureId },
      "Out of stock while the capture is pending: refund it once it completes",
    );
  }
  await getDb()
    .sequelize.transaction(async (transaction) => {
      const locked = await readOrderState({ id: order.id }, transaction);
      if (locked?.orderStatus !== "pending" || locked.paymentStatus === "capturing") return;
      if (locked.paymentStatus !== "pending" && locked.paymentStatus !== "failed") return;
      await updateOrder(
        order.id,
        "order_status = 'rejected', payment_status = 'failed', capture_id = COALESCE(:captureId, capture_id)",
        { captureId: capture?.captureId ?? null },
        transaction,
      );
      if (shortage.kind === "discount") {
        // The shopper checks out again without the code: it leaves their cart with this order.
        const cart = cartOwnerMatch(cartOwnerOfOrder(order), "carts", ":owner");
        await getDb().sequelize.query(
          `UPDATE carts SET discount_code = NULL, updated_at = now()
            WHERE ${cart.where} AND lower(discount_code) = lower(:code)`,
          { replacements: { owner: cart.value, code: shortage.code }, transaction },
        );
      }
    })
    .catch(lockConflictAsAppError);
  return refusal(
    order.id,
    409,
    shortageMessage(shortage, false),
    shortage.kind === "discount" ? "discountUnavailable" : "outOfStock",
  );
}

/**
 * Another request is capturing this order right now (a double click, a second
 * tab): wait for its outcome without holding anything, and answer the same.
 * Still capturing after the wait: "PayPal is still processing" (202), unless
 * the capture lost its caller long ago, then it is driven again under the
 * same request id (the provider answers the same capture, never a second).
 */
async function awaitSettlement(order: OrderState, inputPayerId: string | null): Promise<Settlement> {
  const deadline = Date.now() + IN_FLIGHT_WAIT_MS;
  let current: OrderState | null = order;
  while (current?.paymentStatus === "capturing" && Date.now() < deadline) {
    await sleep(50);
    current = await readOrderState({ id: order.id });
  }
  if (!current) throw notFound(ORDER_NOT_FOUND);
  switch (current.paymentStatus) {
    case "paid":
      if (current.orderStatus === "rejected") break;
      return { kind: "paid", orderId: current.id, alreadyPaid: true };
    case "capturing": {
      const startedAt = current.captureStartedAt?.getTime() ?? Date.now();
      if (Date.now() - startedAt > IN_FLIGHT_LIMIT_MS && current.paymentId && current.captureRequestId) {
        return captureReserved(
          { ...current, paymentId: current.paymentId, captureRequestId: current.captureRequestId },
          inputPayerId,
        );
      }
      return { kind: "pending", orderId: current.id };
    }
    case "failed":
      if (current.orderStatus !== "pending") break;
      return refusal(current.id, 402, CHECKOUT_TEXT.notCompleted, "declined");
    case "pending":
      if (current.orderStatus !== "pending") break;
      return refusal(current.id, 409, CHECKOUT_TEXT.notCompleted, "notApproved");
    default:
      break;
  }
  return refusal(current.id, 409, CHECKOUT_TEXT.closed, "closed");
}

/**
 * Captures the payment of one of the shopper's orders (API.md), in the states
 * above. Idempotent: a paid order answers the same success without asking the
 * provider again; a capture that the provider already made (an earlier
 * attempt whose answer got lost) is read back, never charged twice.
 *
 * Refusals throw CheckoutError: 402 declined (back to `approvalURL` to choose
 * another way to pay; paymentStatus failed, retry allowed), 409 not approved
 * yet, out of stock (nothing charged, or the earlier charge refunded; order
 * rejected), amount mismatch (refunded), order closed. 404 unknown order,
 * 400 invalid input or a payment of another order, 502 the provider failed
 * (the reservation goes back when the provider says nothing was captured; try
 * again). A PENDING capture, or another request's capture still in flight,
 * answers status "pending".
 */
export async function captureOrderPayment(
  buyer: CheckoutBuyer,
  input: CaptureOrderInput,
): Promise<CaptureOutcome> {
  const owner = ownerOfBuyer(buyer);
  const { paymentId, payerId, orderId } = parseCaptureInput(input);
  const begun = await beginCapture(owner, paymentId, orderId);
  let settlement: Settlement;
  switch (begun.kind) {
    case "paid":
      settlement = { kind: "paid", orderId: begun.order.id, alreadyPaid: true };
      break;
    case "inFlight":
      settlement = await awaitSettlement(begun.order, payerId);
      break;
    case "short":
      settlement = await refuseShortage(begun.order, begun.shortage, payerId);
      break;
    case "reserved":
      settlement = await captureReserved(begun.order, payerId);
      break;
  }
  if (settlement.kind === "refused") {
    recordCheckoutRefusal(settlement.error.reason);
    throw settlement.error;
  }
  if (settlement.kind === "paid" && !settlement.alreadyPaid) recordCheckoutOutcome("captured");
  // Read after the commit: what the shopper sees is what was stored.
  const order = await getOrderForUser(owner, settlement.orderId);
  return settlement.kind === "paid"
    ? { status: "paid", order, alreadyPaid: settlement.alreadyPaid }
    : { status: "pending", order };
}

// --- Pages ----------------------------------------------------------------------------

export interface PaymentOrderState {
  orderId: string;
  paymentStatus: PaymentStatus;
  orderStatus: OrderStatus;
  totalAmount: number;
}

/**
 * The buyer's order paid by provider order `paymentId` (the return and
 * cancel pages: without JavaScript there is no stored order id), or null.
 */
export async function findOrderByPayment(
  owner: CartOwner,
  paymentId: unknown,
): Promise<PaymentOrderState | null> {
  if (typeof paymentId !== "string" || !PROVIDER_ID_PATTERN.test(paymentId)) return null;
  const row = await readOrderState({ paymentId, owner });
  if (!row) return null;
  return {
    orderId: row.id,
    paymentStatus: row.paymentStatus,
    orderStatus: row.orderStatus,
    totalAmount: centsToNumber(toCents(row.totalAmount)),
  };
}
