import { createHmac, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { getConfig } from "~/lib/server/config.server";
import { badRequest } from "~/lib/server/errors.server";
import { fieldErrorsOf } from "~/lib/shared/schemas";
import { isUuid } from "~/lib/shared/uuid";
import { getDb } from "~/models/db.server";
import { PROVIDER_ID_PATTERN } from "./checkout/refusals.server";

/**
 * Client-owned payment return (docs/architecture.md, rule 11: external clients live on
 * other origins). An external client may send
 * `returnUrl` and `cancelUrl` with `POST /api/shop/order/create`; each must be
 * on an origin of CORS_ORIGINS or the shop's own. The payment provider only
 * ever returns to the shop: its return and cancel URLs point at the bridge
 * route (`/checkout-return`), carrying the client's URL, the order's id and an
 * HMAC of both (SESSION_SECRET), so that the bridge redirects only to targets
 * the shop itself accepted, and forwards only that order's payment: PayPal's
 * `token` must be the order's provider id and becomes the spec's `paymentId`;
 * `PayerID` is kept.
 */

export const BRIDGE_PATH = "/checkout-return";
/** The spec's return page: the shop's own, and the one a spec client has on its origin. */
export const RETURN_PATH = "/shop/paypal-return";
const MAX_RETURN_URL_LENGTH = 2048;

function allowedOrigins(): string[] {
  const config = getConfig();
  return [new URL(config.appUrl).origin, ...config.corsOrigins];
}

function isAllowedClientUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return false;
  if (url.username || url.password) return false;
  return allowedOrigins().includes(url.origin);
}

const clientUrl = (name: string) =>
  z
    .string({ error: `${name} must be an absolute URL` })
    .trim()
    .max(MAX_RETURN_URL_LENGTH, `${name} must be at most ${MAX_RETURN_URL_LENGTH} characters`)
    .refine(isAllowedClientUrl, {
      message: `${name} must be an absolute http(s) URL on an allowed origin (CORS_ORIGINS or the shop's own)`,
    })
    .optional()
    .meta({
      description:
        name === "returnUrl"
          ? `Where the shopper lands after approving the payment. Must be on an origin listed in CORS_ORIGINS or the shop's own. Without it, a call from a CORS_ORIGINS origin returns to that origin's ${RETURN_PATH}; any other call to the shop's own.`
          : "Where the shopper lands after cancelling the payment. Must be on an origin listed in CORS_ORIGINS or the shop's own. Without it, the shop's own cancel page.",
      format: "uri",
    });

/** The optional client return URLs of an order creation (part of its request body). */
export const paymentReturnSchema = z.object({
  returnUrl: clientUrl("returnUrl"),
  cancelUrl: clientUrl("cancelUrl"),
});

/** The client's own return pages, checked: the order creation turns them into bridge URLs for the provider. */
export interface PaymentReturn {
  returnUrl?: string;
  cancelUrl?: string;
}

function signatureOf(target: string, orderId: string, secret: string): string {
  return createHmac("sha256", secret).update(`checkout-return\n${orderId}\n${target}`).digest("base64url");
}

/**
 * The bridge URL on this shop that leads to `target` (a URL already checked)
 * for order `orderId`. The signature covers both: the bridge forwards only the
 * payment of that order, never a value somebody put into the link.
 */
export function bridgeUrlFor(target: string, orderId: string): string {
  const [secret] = getConfig().sessionSecrets;
  const params = new URLSearchParams({
    to: target,
    order: orderId,
    sig: signatureOf(target, orderId, secret!),
  });
  return `${getConfig().appUrl}${BRIDGE_PATH}?${params}`;
}

/**
 * Reads `returnUrl` and `cancelUrl` from a request body: 400 with field
 * errors for a URL on another origin; the client's pages for the ones sent
 * (undefined keeps the shop's own return pages).
 *
 * A client that sends no `returnUrl` but calls from an origin of CORS_ORIGINS
 * (its `Origin` header) is a client of the spec, which knows nothing of
 * `returnUrl` and has its own `/shop/paypal-return` page: the shopper goes back
 * there, so that the client completes its own flow. Its cancel stays on the
 * shop's page unless it names one.
 */
export function readPaymentReturn(
  body: Record<string, unknown>,
  origin: string | null = null,
): PaymentReturn | undefined {
  const blank = (value: unknown) => value === undefined || value === null || value === "";
  const parsed = paymentReturnSchema.safeParse({
    returnUrl: blank(body.returnUrl) ? undefined : body.returnUrl,
    cancelUrl: blank(body.cancelUrl) ? undefined : body.cancelUrl,
  });
  if (!parsed.success) {
    const errors = fieldErrorsOf(parsed.error);
    throw badRequest(Object.values(errors).flat()[0]!, errors);
  }
  const { cancelUrl } = parsed.data;
  const returnUrl = parsed.data.returnUrl ?? specClientReturnUrl(origin);
  if (!returnUrl && !cancelUrl) return undefined;
  return { ...(returnUrl ? { returnUrl } : {}), ...(cancelUrl ? { cancelUrl } : {}) };
}

/** The spec's return page on a CORS_ORIGINS origin that called, or undefined (no such origin, or the shop's own). */
function specClientReturnUrl(origin: string | null): string | undefined {
  if (!origin || !getConfig().corsOrigins.includes(origin)) return undefined;
  return `${origin}${RETURN_PATH}`;
}

/**
 * Where the bridge sends the shopper: the signed target with the signed
 * order's `paymentId` (its provider order id, from the database) and the
 * provider's `PayerID` added; or null when the link was not made by this shop
 * (bad signature), names a parameter twice, carries another order's `token`
 * or a `PayerID` that is no provider id, or its origin is no longer allowed.
 */
export async function clientReturnTarget(bridge: URL): Promise<string | null> {
  const params = bridge.searchParams;
  // Of two `to`s (or tokens), which did the shop sign? Neither is followed.
  const names = [...params.keys()];
  if (new Set(names).size !== names.length) return null;
  const target = params.get("to");
  const orderId = params.get("order");
  const signature = params.get("sig");
  if (!target || !isUuid(orderId) || !signature || !isAllowedClientUrl(target)) return null;
  const given = Buffer.from(signature);
  const signed = getConfig().sessionSecrets.some((secret) => {
    const expected = Buffer.from(signatureOf(target, orderId, secret));
    return expected.length === given.length && timingSafeEqual(expected, given);
  });
  if (!signed) return null;
  const order = await getDb().models.Order.findByPk(orderId, { attributes: ["paymentId"], raw: true });
  if (!order?.paymentId) return null;
  // PayPal appends the order's `token`; anything else was put there by somebody else.
  const token = params.get("token") ?? params.get("paymentId");
  if (token !== null && token !== order.paymentId) return null;
  // PayerID is made by the provider after the link was signed: it can only be checked for its form
  // here; the capture asks the provider, not this value, whether and what was paid.
  const payerId = params.get("PayerID");
  if (payerId !== null && !PROVIDER_ID_PATTERN.test(payerId)) return null;
  const url = new URL(target);
  url.searchParams.set("paymentId", order.paymentId);
  if (payerId) url.searchParams.set("PayerID", payerId);
  return url.toString();
}
