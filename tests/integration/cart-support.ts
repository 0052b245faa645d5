import { QueryTypes } from "sequelize";
import { getDb } from "../../app/models/db.server";
import { isAppError } from "../../app/lib/server/errors.server";
import type { CartItemJson, CartJson } from "../../app/lib/shared/cart";
import { readFlash } from "../../app/web/session.server";
import { createTestUser } from "../support/database";
import { buildRequest, cookieFrom, sessionCookieFor } from "../support/requests";

/** Helpers of the cart tests (cart-*.test.ts). */

export const UNKNOWN_ID = "00000000-0000-4000-8000-000000000000";

export interface Caller {
  id: string;
  cookie: string;
}

export async function signedIn(role: "user" | "admin" = "user"): Promise<Caller> {
  const user = await createTestUser({ role });
  return { id: user.id, cookie: await sessionCookieFor(user.id) };
}

/** The status and message of the AppError that `promise` throws. */
export async function refusal(promise: Promise<unknown>): Promise<{ status: number; message: string }> {
  try {
    await promise;
  } catch (error) {
    if (isAppError(error)) return { status: error.status, message: error.message };
    throw error;
  }
  throw new Error("expected a refusal");
}

/** The quantity of `productId` in the cart of `userId`, read straight from the tables (0 when absent). */
export async function quantityInCart(userId: string, productId: string): Promise<number> {
  const [row] = await getDb().sequelize.query<{ quantity: number }>(
    `SELECT ci.quantity FROM carts c JOIN cart_items ci ON ci.cart_id = c.id
      WHERE c.user_id = $1 AND ci.product_id = $2`,
    { bind: [userId, productId], type: QueryTypes.SELECT },
  );
  return row?.quantity ?? 0;
}

/** The flash message that a response's Set-Cookie carries to the next page, or null. */
export async function flashOf(response: Response) {
  const cookie = cookieFrom(response);
  if (!cookie.includes("__flash=")) return null;
  return (await readFlash(buildRequest("/", { cookie }))).flash;
}

/** The clothes lines of a cart's answer (the gift cards bought stand beside them, docs/decisions/0051). */
export function clothesOf(cart: CartJson): CartItemJson[] {
  return cart.items.filter((item): item is CartItemJson => "productId" in item);
}
