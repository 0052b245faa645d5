import { requestExchange } from "./exchange-request.server";
import { QueryTypes } from "sequelize";
import { z } from "zod";
import { getConfig } from "~/lib/server/config.server";
import { badRequest } from "~/lib/server/errors.server";
import { fieldErrorsOf } from "~/lib/shared/schemas";
import { emailField } from "~/lib/shared/schemas";
import { guestOrderPath, GUEST_ORDER_TEXT } from "~/lib/shared/guest-orders";
import { shortOrderNumber } from "~/lib/shared/order-options";
import type { ReturnJson } from "~/lib/shared/returns";
import { getDb } from "~/models/db.server";
import { lockConflictAsAppError } from "./checkout/refusals.server";
import { button, htmlDocument, SHOP_NAME } from "./mail/templates.server";
import { enqueueMail } from "./mail/outbox.server";
import { guestTokenHashOf, issueGuestOrderToken } from "./guest-order-token.server";
import { getOrderByGuestTokenHash, type OrderJson } from "./orders.server";
import { consumeGuestOrderLookup } from "./rate-limit.server";
import { requestReturn } from "./return-request.server";
import { listReturnsForOrder } from "./returns.server";

/**
 * A guest's order after checkout (API.md, "Open storefront and guest checkout"; docs/decisions/0044): read
 * and asked to return through its private link, whose token is the only key, and found again by
 * "Find my order", which mails a new link. The rules of the order and the return are the shopper's own
 * (orders.server.ts, return-request.server.ts); what is here is only how a guest reaches them.
 */

/** A guest's order by its link's token, with its returns; an unknown or malformed token answers 404. */
export async function getGuestOrder(token: unknown): Promise<{ order: OrderJson; returns: ReturnJson[] }> {
  const order = await getOrderByGuestTokenHash(guestTokenHashOf(token));
  return { order, returns: await listReturnsForOrder(order._id) };
}

/** The return request of the order behind the link (the shopper's body without `userId`; the same rules). */
export async function requestGuestReturn(token: unknown, input: unknown): Promise<ReturnJson> {
  const { order } = await getGuestOrder(token);
  const body = (input ?? {}) as Record<string, unknown>;
  return requestReturn({ guestOrderId: order._id }, { ...body, orderId: order._id });
}

/** A guest's exchange (the shopper's rules, requestExchange) for the order behind the token. */
export async function requestGuestExchange(token: unknown, input: unknown): Promise<ReturnJson> {
  const { order } = await getGuestOrder(token);
  const body = (input ?? {}) as Record<string, unknown>;
  return requestExchange({ guestOrderId: order._id }, { ...body, orderId: order._id });
}

/** "Find my order"'s body: the email given at checkout and the order's id or its number (first 8 digits). */
export const guestOrderLookupSchema = z.object({
  email: emailField,
  orderId: z
    .string({ error: "orderId is required: the order number from your confirmation" })
    .trim()
    .min(1, { error: "orderId is required: the order number from your confirmation" })
    .max(40, { error: "orderId is at most 40 characters" })
    .meta({ description: "The order's id, or its number (the first 8 characters, with or without #)" }),
});

const ORDER_NUMBER = /^#?([0-9a-f]{8})$/i;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function linkMail(orderId: string, link: string) {
  const number = shortOrderNumber(orderId);
  const subject = `The link to your ${SHOP_NAME} order #${number}`;
  const text = [
    "Hello,",
    "",
    `Here is a new link to your order #${number}: ${link}`,
    "The link in any earlier email no longer works. If you did not ask for this, you can ignore this email.",
  ].join("\n");
  const html = htmlDocument(
    subject,
    `<p>Hello,</p>
<p>Here is a new link to your order #${number}. The link in any earlier email no longer works.</p>
${button(link, "View your order")}
<p>If you did not ask for this, you can ignore this email.</p>`,
  );
  return { subject, text, html };
}

/**
 * "Find my order": when a guest order of `email` has this id (or number), it gets a new token and its link
 * is mailed to that email (the old link stops working). Always the same answer, found or not, so that
 * nobody learns which emails bought what; rate limited per client and per email (429) before anything is read.
 */
export async function lookupGuestOrder(input: unknown, clientKey: string): Promise<{ message: string }> {
  const parsed = guestOrderLookupSchema.safeParse(input ?? {});
  if (!parsed.success) {
    const errors = fieldErrorsOf(parsed.error);
    throw badRequest(Object.values(errors).flat()[0] ?? "Invalid lookup", errors);
  }
  const { email, orderId } = parsed.data;
  await consumeGuestOrderLookup(clientKey, email);
  const number = ORDER_NUMBER.exec(orderId)?.[1]?.toLowerCase();
  if (!number && !UUID.test(orderId)) return { message: GUEST_ORDER_TEXT.lookupSent };
  const { sequelize } = getDb();
  await sequelize
    .transaction(async (transaction) => {
      // By the email's index (0043), then the id: a number names the order whose id it begins.
      const [found] = await sequelize.query<{ id: string }>(
        `SELECT id FROM orders
          WHERE guest_email = :email AND user_id IS NULL AND payment_status <> 'pending'
            AND ${number ? "left(id::text, 8) = :number" : "id = :orderId::uuid"}
          ORDER BY order_date DESC LIMIT 1 FOR UPDATE`,
        { replacements: { email, number, orderId }, type: QueryTypes.SELECT, transaction },
      );
      if (!found) return;
      const token = await issueGuestOrderToken(found.id, transaction);
      if (!token) return;
      await enqueueMail(
        {
          kind: "guest-order-link",
          to: email,
          ...linkMail(found.id, `${getConfig().appUrl}${guestOrderPath(token)}`),
        },
        transaction,
      );
    })
    .catch(lockConflictAsAppError);
  return { message: GUEST_ORDER_TEXT.lookupSent };
}
