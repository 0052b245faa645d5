import { QueryTypes } from "sequelize";
import { getDb } from "~/models/db.server";
import { toCents } from "~/lib/shared/money";
import type { CaptureStatus } from "~/payments/gateway.server";
import { getPaymentGateway } from "~/payments/index.server";
import { finishRefund, markRefundDue } from "./refund.server";
import {
  CHECKOUT_TEXT,
  CheckoutError,
  lockConflictAsAppError,
  type CheckoutRefusal,
} from "./refusals.server";
import { cartOwnerMatch } from "../cart-owner.server";
import {
  cartOwnerOfOrder,
  confirmedOrderEffects,
  orderedVariantIds,
  readOrderState,
  reserveStock,
  returnStock,
  shortageMessage,
  updateOrder,
} from "./order-store.server";
import { getLogger } from "~/lib/server/logger.server";

/**
 * The end of a capture, one short transaction each: confirm (the money moved)
 * or release (it did not). Shared by the shopper's capture and the
 * reconciler, so an order settled after a crash ends exactly like one settled
 * at once. Every transition checks the order's state under its row lock, so
 * two settlers (two tabs, two app instances) confirm or release once.
 */

export type Settlement =
  | { kind: "paid"; orderId: string; alreadyPaid: boolean }
  | { kind: "pending"; orderId: string }
  /** The provider never captured this attempt: the reservation went back, the order may be paid again. */
  | { kind: "released"; orderId: string }
  | { kind: "refused"; error: CheckoutError };

interface CapturedMoney {
  captureId: string;
  amountCents: number;
  currency: string;
  payerId: string | null;
}

export function refusal(
  orderId: string,
  status: number,
  message: string,
  reason: CheckoutRefusal,
  approvalURL: string | null = null,
): Settlement {
  return { kind: "refused", error: new CheckoutError(status, message, reason, orderId, approvalURL) };
}

type ConfirmStep = Settlement | { kind: "refund"; amountCents: number; refused: Settlement };

/**
 * The provider captured `money` for this order: paid + confirmed, payer and
 * capture ids, the bought lines out of the shopper's cart. The stock was
 * reserved when the capture began (`capturing`); an order that is no longer
 * capturing (released meanwhile, or a capture found later) reserves it now.
 * Money that cannot be kept (another amount, no stock left, an order closed
 * meanwhile) is refunded: see refund.server.ts.
 */
export async function confirmCapture(orderId: string, money: CapturedMoney): Promise<Settlement> {
  const { sequelize } = getDb();
  const step = await sequelize
    .transaction(async (transaction): Promise<ConfirmStep> => {
      const order = await readOrderState({ id: orderId }, transaction);
      if (!order) throw new Error(`Order ${orderId} disappeared during its capture`);
      if (order.paymentStatus === "paid" && order.orderStatus !== "rejected") {
        return { kind: "paid", orderId, alreadyPaid: true };
      }
      if (order.paymentStatus === "refunded" || order.paymentStatus === "paid") {
        return refusal(orderId, 409, CHECKOUT_TEXT.closed, "closed");
      }
      const reserved = order.paymentStatus === "capturing";
      const mismatch = money.amountCents !== toCents(order.providerAmount) || money.currency !== "USD";
      if (mismatch || order.orderStatus !== "pending") {
        if (reserved) await returnStock(order.id, transaction);
        await markRefundDue(order.id, money.captureId, money.payerId, transaction);
        return {
          kind: "refund",
          amountCents: money.amountCents,
          refused: mismatch
            ? refusal(orderId, 409, CHECKOUT_TEXT.amountMismatch, "amountMismatch")
            : refusal(orderId, 409, CHECKOUT_TEXT.closed, "closed"),
        };
      }
      // The house's lock order: the cart row before the products (a guest's: the cart it was bought from).
      const cart = cartOwnerMatch(cartOwnerOfOrder(order), "c", ":owner");
      await sequelize.query(`SELECT c.id FROM carts c WHERE ${cart.where} FOR UPDATE`, {
        replacements: { owner: cart.value },
        type: QueryTypes.SELECT,
        transaction,
      });
      if (!reserved) {
        const shortage = await reserveStock(order.id, transaction);
        if (shortage) {
          await markRefundDue(order.id, money.captureId, money.payerId, transaction);
          return {
            kind: "refund",
            amountCents: money.amountCents,
            refused: refusal(orderId, 409, shortageMessage(shortage, true), "refunded"),
          };
        }
      }
      await updateOrder(
        order.id,
        `payment_status = 'paid', order_status = 'confirmed', payer_id = COALESCE(:payerId, payer_id),
         capture_id = :captureId, capture_started_at = NULL, captured_at = now()`,
        { payerId: money.payerId, captureId: money.captureId },
        transaction,
      );
      const variantIds = await orderedVariantIds(order.id, transaction);
      if (variantIds.length) {
        await sequelize.query(
          `DELETE FROM cart_items ci USING carts c
            WHERE ci.cart_id = c.id AND ${cart.where} AND ci.variant_id IN (:variantIds)`,
          { replacements: { owner: cart.value, variantIds }, transaction },
        );
      }
      // The cards that paid leave the cart with the lines they paid for.
      await sequelize.query(
        `DELETE FROM cart_gift_cards g USING carts c
          WHERE g.cart_id = c.id AND ${cart.where}
            AND g.account_id IN (SELECT account_id FROM order_payments WHERE order_id = :orderId)`,
        { replacements: { owner: cart.value, orderId: order.id }, transaction },
      );
      // The cards bought and the confirmation mail commit with the confirmation, or not at all (the outbox).
      await confirmedOrderEffects(order.id, transaction);
      return { kind: "paid", orderId, alreadyPaid: false };
    })
    .catch(lockConflictAsAppError);
  if (step.kind !== "refund") return step;
  try {
    await finishRefund(orderId, step.amountCents);
  } catch (error) {
    // The order stays "refund due" and the reconciler finishes it; the shopper's answer is the same.
    getLogger().warn({ err: error, orderId }, "The refund failed and will be retried");
  }
  return step.refused;
}

interface Release {
  paymentStatus: "pending" | "failed" | "refunded";
  /** Close the order (order_status rejected): the provider order can never be paid. */
  reject?: boolean;
  captureId?: string | null;
  payerId?: string | null;
}

/**
 * The provider did not take the money: the reserved stock goes back and the
 * order leaves `capturing`. Only a capturing order is released (false
 * otherwise: somebody else settled it first).
 */
export async function releaseReservation(orderId: string, release: Release): Promise<boolean> {
  return getDb()
    .sequelize.transaction(async (transaction) => {
      const order = await readOrderState({ id: orderId }, transaction);
      if (order?.paymentStatus !== "capturing") return false;
      await returnStock(order.id, transaction);
      await updateOrder(
        order.id,
        `payment_status = :paymentStatus, order_status = ${release.reject ? "'rejected'" : "order_status"},
         capture_id = COALESCE(:captureId, capture_id), payer_id = COALESCE(:payerId, payer_id),
         capture_started_at = NULL`,
        {
          paymentStatus: release.paymentStatus,
          captureId: release.captureId ?? null,
          payerId: release.payerId ?? null,
        },
        transaction,
      );
      return true;
    })
    .catch(lockConflictAsAppError);
}

/** Settles an order from the state of its provider capture (from a capture call or a read). */
export async function applyProviderCapture(
  orderId: string,
  capture: { status: CaptureStatus; captureId: string; amountCents: number; currency: string },
  payerId: string | null,
): Promise<Settlement> {
  const captureId = capture.captureId || null;
  switch (capture.status) {
    case "COMPLETED":
      return confirmCapture(orderId, { ...capture, payerId });
    case "PENDING":
      // The provider is still reviewing the payment: the order awaits it, holding no stock.
      await releaseReservation(orderId, { paymentStatus: "pending", captureId, payerId });
      return { kind: "pending", orderId };
    case "REFUNDED":
    case "PARTIALLY_REFUNDED":
      await releaseReservation(orderId, { paymentStatus: "refunded", reject: true, captureId, payerId });
      return refusal(orderId, 409, CHECKOUT_TEXT.refundedAtProvider, "refunded");
    default:
      // DECLINED or FAILED after the fact: the provider order is finished without money.
      await releaseReservation(orderId, { paymentStatus: "failed", reject: true, captureId, payerId });
      return refusal(orderId, 402, CHECKOUT_TEXT.declinedFinally, "declined");
  }
}

/**
 * Asks the provider what became of an order's payment and settles it: a
 * capture is applied as above; no capture releases a capturing order (it may
 * be paid again). Throws the gateway's errors (the provider unreachable):
 * the order then stays as it is.
 */
export async function settleFromProvider(order: { id: string; paymentId: string }): Promise<Settlement> {
  const provider = await getPaymentGateway().getOrder(order.paymentId);
  if (provider.capture) return applyProviderCapture(order.id, provider.capture, provider.payerId);
  await releaseReservation(order.id, { paymentStatus: "pending" });
  return { kind: "released", orderId: order.id };
}
