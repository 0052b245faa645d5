import { QueryTypes, type Transaction } from "sequelize";
import { isRefundTo, RETURN_REFUND_TO_TEXT, type RefundTo } from "~/lib/shared/gift-cards";
import { getConfig } from "~/lib/server/config.server";
import { badRequest, conflict, notFound, type FieldErrors } from "~/lib/server/errors.server";
import { isCaptured } from "~/lib/shared/order-options";
import {
  RETURN_REASON_LABELS,
  isReturnReason,
  returnWindowEnd,
  type ReturnJson,
  type ReturnReason,
} from "~/lib/shared/returns";
import { isUuid } from "~/lib/shared/uuid";
import { lineName } from "~/lib/shared/variants";
import { getDb } from "~/models/db.server";
import { readOrderState, type OrderState } from "./checkout/order-store.server";
import { lockConflictAsAppError } from "./checkout/refusals.server";
import { ORDER_NOT_FOUND } from "./orders.server";
import {
  getReturn,
  mailReturn,
  MAX_RETURN_LINES,
  RETURN_TEXT,
  returnableLines,
  type ReturnableLine,
} from "./returns.server";

/** The shopper's request to return lines of a delivered order (the flow is told in returns.server.ts). */

/** A guest asks through the private link of their order, which names the order. */
export interface GuestOrderRequester {
  guestOrderId: string;
}

/** Who asks: a shopper by their id, or a guest for the order of their link. */
export type ReturnRequester = string | GuestOrderRequester;

interface RequestedItem {
  variantId: string | null;
  productId: string | null;
  quantity: number;
  reason: ReturnReason;
}

function parseReturnRequest(input: unknown): {
  orderId: string;
  items: RequestedItem[];
  refundTo: RefundTo;
} {
  const body = (input ?? {}) as Record<string, unknown>;
  const errors: FieldErrors = {};
  const refundTo = body.refundTo ?? "original";
  if (!isRefundTo(refundTo)) errors.refundTo = [RETURN_REFUND_TO_TEXT.invalid];
  const orderId = typeof body.orderId === "string" ? body.orderId.trim() : "";
  if (!isUuid(orderId)) errors.orderId = ["Order id is required"];
  const items: RequestedItem[] = [];
  if (!Array.isArray(body.items) || body.items.length === 0) {
    errors.items = ["Choose at least one item to return"];
  } else if (body.items.length > MAX_RETURN_LINES) {
    errors.items = [`At most ${MAX_RETURN_LINES} items per return`];
  } else {
    body.items.forEach((raw: unknown, index) => {
      const item = (raw ?? {}) as Record<string, unknown>;
      const at = `items.${index}`;
      const variantId = isUuid(item.variantId) ? item.variantId : null;
      const productId = isUuid(item.productId) ? item.productId : null;
      if (!variantId && !productId) errors[`${at}.variantId`] = ["Which item? Give its variantId"];
      const quantity = typeof item.quantity === "string" ? Number(item.quantity) : item.quantity;
      if (!Number.isSafeInteger(quantity) || (quantity as number) < 1 || (quantity as number) > 1000)
        errors[`${at}.quantity`] = ["Quantity must be a whole number from 1"];
      if (!isReturnReason(item.reason))
        errors[`${at}.reason`] = [`Reason must be one of: ${Object.keys(RETURN_REASON_LABELS).join(", ")}`];
      items.push({ variantId, productId, quantity: quantity as number, reason: item.reason as ReturnReason });
    });
  }
  const problems = Object.values(errors).flat();
  if (problems.length) throw badRequest(problems[0]!, errors);
  return { orderId, items, refundTo: refundTo as RefundTo };
}

/**
 * Who asks: a signed-in shopper, or the holder of a guest order's private link (the guest's route finds
 * the order by its token and passes its id).
 */
export type ReturnOwner = { userId: string } | GuestOrderRequester;

/**
 * Inside `transaction`: the shopper's order, locked, if it takes a return or an exchange now: delivered,
 * paid and within RETURN_WINDOW_DAYS of its delivery; otherwise the refusal (404 when not theirs).
 */
export async function lockOrderForReturn(
  orderId: string,
  owner: ReturnOwner,
  transaction: Transaction,
): Promise<OrderState> {
  const order = await readOrderState({ id: orderId }, transaction);
  const owned =
    "userId" in owner ? order?.userId === owner.userId : order?.id === owner.guestOrderId && !order.userId;
  if (!order || !owned) throw notFound(ORDER_NOT_FOUND);
  if (order.orderStatus !== "delivered") throw conflict(RETURN_TEXT.notDelivered);
  if (!isCaptured(order.paymentStatus)) throw conflict(RETURN_TEXT.notPaid);
  const [{ deliveredAt } = { deliveredAt: null }] = await getDb().sequelize.query<{
    deliveredAt: Date | null;
  }>(`SELECT delivered_at AS "deliveredAt" FROM orders WHERE id = :orderId`, {
    replacements: { orderId: order.id },
    type: QueryTypes.SELECT,
    transaction,
  });
  const days = getConfig().returnWindowDays;
  const windowEnd = returnWindowEnd(deliveredAt ?? new Date(0), days);
  if (windowEnd.getTime() <= Date.now()) {
    throw conflict(RETURN_TEXT.windowClosed(days, windowEnd.toISOString().slice(0, 10)));
  }
  return order;
}

/**
 * The shopper asks to return lines of their delivered order (API:
 * POST /api/shop/order/return). Lines are named by variantId (or productId for
 * a line of a product without sizes); never more than was bought less what
 * other returns hold. Answers the return, `requested`.
 */
export async function requestReturn(requester: ReturnRequester, input: unknown): Promise<ReturnJson> {
  const request = parseReturnRequest(input);
  const userId = typeof requester === "string" ? requester : null;
  if (request.refundTo === "storeCredit" && userId === null) {
    throw badRequest(RETURN_REFUND_TO_TEXT.guest, { refundTo: [RETURN_REFUND_TO_TEXT.guest] });
  }
  const returnId = await getDb()
    .sequelize.transaction(async (transaction) => {
      const order = await lockOrderForReturn(
        request.orderId,
        userId !== null ? { userId } : (requester as GuestOrderRequester),
        transaction,
      );
      const lines = await returnableLines(order.id, transaction);
      const chosen = new Map<string, { line: ReturnableLine; quantity: number; reason: ReturnReason }>();
      const errors: FieldErrors = {};
      request.items.forEach((item, index) => {
        const matches = lines.filter((line) =>
          item.variantId ? line.variantId === item.variantId : line.productId === item.productId,
        );
        // The line's own units first; a variant an exchange sent is its replacement's.
        const own = matches.filter((line) => line.returnedVariantId === null);
        const line = own.length === 1 ? own[0] : matches.length === 1 ? matches[0] : undefined;
        if (!line) {
          errors[`items.${index}.variantId`] = [RETURN_TEXT.noLine];
          return;
        }
        if ([...chosen.values()].some((entry) => entry.line.id === line.id && entry.line !== line)) {
          errors[`items.${index}.variantId`] = [RETURN_TEXT.replacementApart];
          return;
        }
        const key = `${line.id}:${line.returnedVariantId ?? ""}`;
        const quantity = (chosen.get(key)?.quantity ?? 0) + item.quantity;
        const left = line.quantity - line.inReturns;
        if (quantity > left) errors[`items.${index}.quantity`] = [RETURN_TEXT.tooMany(left, lineName(line))];
        else chosen.set(key, { line, quantity, reason: item.reason });
      });
      const problems = Object.values(errors).flat();
      if (problems.length) throw badRequest(problems[0]!, errors);

      const [created] = await getDb().sequelize.query<{ id: string }>(
        `INSERT INTO order_returns (order_id, user_id, refund_to) VALUES (:orderId, :userId, :refundTo) RETURNING id`,
        {
          replacements: { orderId: order.id, userId, refundTo: request.refundTo },
          type: QueryTypes.SELECT,
          transaction,
        },
      );
      const picked = [...chosen.values()];
      await getDb().sequelize.query(
        `INSERT INTO order_return_items (return_id, order_item_id, quantity, reason, returned_variant_id)
         SELECT :returnId, n.line, n.quantity, n.reason, n.returned
           FROM unnest(ARRAY[:lineIds]::uuid[], ARRAY[:quantities]::int[], ARRAY[:reasons]::text[],
                       ARRAY[:returned]::uuid[]) AS n(line, quantity, reason, returned)`,
        {
          replacements: {
            returnId: created!.id,
            lineIds: picked.map((entry) => entry.line.id),
            quantities: picked.map((entry) => entry.quantity),
            reasons: picked.map((entry) => entry.reason),
            returned: picked.map((entry) => entry.line.returnedVariantId),
          },
          transaction,
        },
      );
      await mailReturn("requested", created!.id, transaction);
      return created!.id;
    })
    .catch(lockConflictAsAppError);
  return getReturn(returnId);
}
