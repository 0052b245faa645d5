import { QueryTypes } from "sequelize";
import { badRequest, conflict, type FieldErrors } from "~/lib/server/errors.server";
import {
  RETURN_REASON_LABELS,
  isReturnReason,
  type ReturnJson,
  type ReturnReason,
} from "~/lib/shared/returns";
import { isUuid } from "~/lib/shared/uuid";
import { lineName } from "~/lib/shared/variants";
import { getDb } from "~/models/db.server";
import { getProduct } from "./catalog.server";
import { takeExchangeUnits } from "./checkout/order-store.server";
import { shopperProductState } from "./shopper-product-state.server";
import { lockConflictAsAppError } from "./checkout/refusals.server";
import { lockOrderForReturn, type ReturnOwner } from "./return-request.server";
import { getReturn, mailReturn, MAX_RETURN_LINES, RETURN_TEXT, returnableLines } from "./returns.server";

/**
 * Size exchanges (docs/decisions/0046): the shopper sends units of a delivered line back for another size
 * or colour of the same product. An exchange is a return of type `exchange` whose items name the variant
 * sent instead; its units are taken from stock in the request's own transaction, so the size is held at
 * once and two shoppers racing for the last unit cannot both have it. No money moves.
 */

export const EXCHANGE_TEXT = {
  soldOut: "That size has just sold out",
  chooseNew: "Choose the size or colour you want instead",
  notThisProduct: "Choose another size or colour of the same product",
  sameVariant: "Choose a size or colour other than the one you have",
  oneNewPerLine: "Exchange one line for one new size at a time",
  requested: "Exchange requested: your new size is held for you. We emailed you what happens next.",
} as const;

interface RequestedExchange {
  variantId: string | null;
  quantity: number;
  newVariantId: string | null;
  reason: ReturnReason;
}

function parseExchangeRequest(input: unknown): { orderId: string; items: RequestedExchange[] } {
  const body = (input ?? {}) as Record<string, unknown>;
  const errors: FieldErrors = {};
  const orderId = typeof body.orderId === "string" ? body.orderId.trim() : "";
  if (!isUuid(orderId)) errors.orderId = ["Order id is required"];
  const items: RequestedExchange[] = [];
  if (!Array.isArray(body.items) || body.items.length === 0) {
    errors.items = ["Choose at least one item to exchange"];
  } else if (body.items.length > MAX_RETURN_LINES) {
    errors.items = [`At most ${MAX_RETURN_LINES} items per exchange`];
  } else {
    body.items.forEach((raw: unknown, index) => {
      const item = (raw ?? {}) as Record<string, unknown>;
      const at = `items.${index}`;
      const variantId = isUuid(item.variantId) ? item.variantId : null;
      if (!variantId) errors[`${at}.variantId`] = ["Which item? Give its variantId"];
      const newVariantId = isUuid(item.newVariantId) ? item.newVariantId : null;
      if (!newVariantId) errors[`${at}.newVariantId`] = [EXCHANGE_TEXT.chooseNew];
      const quantity = typeof item.quantity === "string" ? Number(item.quantity) : item.quantity;
      if (!Number.isSafeInteger(quantity) || (quantity as number) < 1 || (quantity as number) > 1000)
        errors[`${at}.quantity`] = ["Quantity must be a whole number from 1"];
      if (!isReturnReason(item.reason))
        errors[`${at}.reason`] = [`Reason must be one of: ${Object.keys(RETURN_REASON_LABELS).join(", ")}`];
      items.push({
        variantId,
        newVariantId,
        quantity: quantity as number,
        reason: item.reason as ReturnReason,
      });
    });
  }
  const problems = Object.values(errors).flat();
  if (problems.length) throw badRequest(problems[0]!, errors);
  return { orderId, items };
}

interface NewVariant {
  id: string;
  productId: string;
  size: string | null;
  colour: string | null;
  sku: string;
}

/**
 * The shopper asks to exchange units of their delivered order for another size or colour (API:
 * POST /api/shop/order/exchange; a guest's route passes `{ guestOrderId }`). The same window and limits as
 * a return (never more units than were bought less those returned or exchanged); the new units are taken
 * from stock here, or 409 "That size has just sold out". Answers the return, `type: "exchange"`, requested.
 */
export async function requestExchange(owner: ReturnOwner, input: unknown): Promise<ReturnJson> {
  const request = parseExchangeRequest(input);
  const { sequelize } = getDb();
  const returnId = await sequelize
    .transaction(async (transaction) => {
      const order = await lockOrderForReturn(request.orderId, owner, transaction);
      const lines = (await returnableLines(order.id, transaction)).filter((line) => !line.returnedVariantId);
      const newVariants = await sequelize.query<NewVariant>(
        `SELECT id, product_id AS "productId", size, colour, sku FROM product_variants WHERE id IN (:ids)`,
        {
          replacements: { ids: request.items.map((item) => item.newVariantId) },
          type: QueryTypes.SELECT,
          transaction,
        },
      );
      const chosen = new Map<
        string,
        { lineId: string; productId: string; variant: NewVariant; quantity: number; reason: ReturnReason }
      >();
      const errors: FieldErrors = {};
      request.items.forEach((item, index) => {
        const at = `items.${index}`;
        const line = lines.find((candidate) => candidate.variantId === item.variantId);
        if (!line?.productId) {
          errors[`${at}.variantId`] = [RETURN_TEXT.noLine];
          return;
        }
        const variant = newVariants.find((candidate) => candidate.id === item.newVariantId);
        if (!variant || variant.productId !== line.productId) {
          errors[`${at}.newVariantId`] = [EXCHANGE_TEXT.notThisProduct];
          return;
        }
        if (variant.id === line.variantId) {
          errors[`${at}.newVariantId`] = [EXCHANGE_TEXT.sameVariant];
          return;
        }
        const earlier = chosen.get(line.id);
        if (earlier && earlier.variant.id !== variant.id) {
          errors[`${at}.newVariantId`] = [EXCHANGE_TEXT.oneNewPerLine];
          return;
        }
        const quantity = (earlier?.quantity ?? 0) + item.quantity;
        const left = line.quantity - line.inReturns;
        if (quantity > left) errors[`${at}.quantity`] = [RETURN_TEXT.tooMany(left, lineName(line))];
        else
          chosen.set(line.id, {
            lineId: line.id,
            productId: line.productId,
            variant,
            quantity,
            reason: item.reason,
          });
      });
      const problems = Object.values(errors).flat();
      if (problems.length) throw badRequest(problems[0]!, errors);

      const picked = [...chosen.values()];
      const short = await takeExchangeUnits(
        picked.map((entry) => ({
          productId: entry.productId,
          variantId: entry.variant.id,
          quantity: entry.quantity,
        })),
        transaction,
      );
      if (short) throw conflict(EXCHANGE_TEXT.soldOut);

      const [created] = await sequelize.query<{ id: string }>(
        `INSERT INTO order_returns (order_id, user_id, type) VALUES (:orderId, :userId, 'exchange') RETURNING id`,
        { replacements: { orderId: order.id, userId: order.userId }, type: QueryTypes.SELECT, transaction },
      );
      await sequelize.query(
        `INSERT INTO order_return_items
                (return_id, order_item_id, quantity, reason, new_variant_id, new_size, new_colour, new_sku)
         SELECT :returnId, n.line, n.quantity, n.reason, v.id, v.size, v.colour, v.sku
           FROM unnest(ARRAY[:lineIds]::uuid[], ARRAY[:quantities]::int[], ARRAY[:reasons]::text[],
                       ARRAY[:variantIds]::uuid[]) AS n(line, quantity, reason, variant)
           JOIN product_variants v ON v.id = n.variant`,
        {
          replacements: {
            returnId: created!.id,
            lineIds: picked.map((entry) => entry.lineId),
            quantities: picked.map((entry) => entry.quantity),
            reasons: picked.map((entry) => entry.reason),
            variantIds: picked.map((entry) => entry.variant.id),
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

/**
 * What the order page offers in exchange for a line of `variantId`: the product's other sizes and
 * colours with their stock (a sold-out one too, to ask for a back-in-stock alert), and the alerts the
 * shopper already waits for (none for a visitor without an account). A product since removed offers nothing.
 */
export async function exchangeChoices(
  userId: string | null,
  productId: string,
  variantId: string,
): Promise<{
  choices: { _id: string; size: string | null; colour: string | null; totalStock: number }[];
  waitingVariantIds: string[];
}> {
  const [product, shopper] = await Promise.all([
    getProduct(productId),
    userId ? shopperProductState(userId, productId) : { waitingVariantIds: [] },
  ]);
  const choices = (product?.variants ?? [])
    .filter((variant) => variant._id !== variantId)
    .map(({ _id, size, colour, totalStock }) => ({ _id, size, colour, totalStock }));
  return { choices, waitingVariantIds: shopper.waitingVariantIds };
}
