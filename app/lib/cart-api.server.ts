import type { SessionUser } from "~/services/users.server";
import { readJsonObject } from "./api.server";
import { requireApiShopper } from "./auth.server";
import { badRequest } from "./errors.server";

/**
 * The body of the JSON cart calls that name a product (add, update-cart):
 * `{ userId, productId, quantity }`. Checks, in this order: signed in (401),
 * a shopper (403 for admins), JSON (415), a JSON object (400), the body's
 * `userId` — optional, but the caller's own when sent (403) — and a
 * `productId` string (400). The quantity is the service's to judge.
 */
export async function readCartItemBody(
  request: Request,
): Promise<{ user: SessionUser; productId: string; quantity: unknown }> {
  await requireApiShopper(request);
  const body = await readJsonObject(request);
  const user = await requireApiShopper(request, body.userId);
  if (typeof body.productId !== "string" || body.productId.trim() === "") {
    const message = "productId is required: the id of a product";
    throw badRequest(message, { productId: [message] });
  }
  return { user, productId: body.productId, quantity: body.quantity };
}
