import { z } from "zod";
import type { SessionUser } from "~/services/users.server";
import { requireOwnData } from "./auth.server";
import { badRequest } from "~/lib/server/errors.server";

const PRODUCT_ID_REQUIRED = "productId is required: the id of a product";

/** The body of cart add and update-cart (the OpenAPI document is generated from it). */
export const cartItemBodySchema = z.object({
  // Any other value than the caller's id is refused for whose it is (403), not for its type.
  userId: z
    .unknown()
    .optional()
    .meta({ type: "string", format: "uuid", description: "The caller's own id when sent (403 otherwise)" }),
  productId: z.string({ error: PRODUCT_ID_REQUIRED }).trim().min(1, { error: PRODUCT_ID_REQUIRED }),
  quantity: z.int().min(1).meta({ description: "A positive whole number (the cart service judges it)" }),
  variantId: z.string().optional().meta({
    format: "uuid",
    description:
      "The size or colour (a variant of the product): needed when the product has several, else optional",
  }),
});

/**
 * The body of the JSON cart calls that name a product (add, update-cart):
 * `{ userId, productId, quantity, variantId? }`, once `apiRoute` has checked the caller (401, 403 for
 * admins) and read the JSON object (415, 400): the body's `userId` — optional, but the caller's own
 * when sent (403) — and a `productId` string (400). The quantity is the service's to judge.
 */
export function readCartItemBody(
  caller: SessionUser,
  body: Record<string, unknown>,
): { user: SessionUser; productId: string; quantity: unknown; variantId: unknown } {
  const user = requireOwnData(caller, body.userId);
  if (!cartItemBodySchema.shape.productId.safeParse(body.productId).success) {
    throw badRequest(PRODUCT_ID_REQUIRED, { productId: [PRODUCT_ID_REQUIRED] });
  }
  return { user, productId: body.productId as string, quantity: body.quantity, variantId: body.variantId };
}
