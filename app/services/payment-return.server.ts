import { createHmac, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { getConfig } from "~/lib/server/config.server";
import { badRequest } from "~/lib/server/errors.server";
import { fieldErrorsOf } from "~/lib/shared/schemas";

/**
 * Client-owned payment return (ARCHITECTURE rule 11: external clients live on
 * other origins). An external client may send
 * `returnUrl` and `cancelUrl` with `POST /api/shop/order/create`; each must be
 * on an origin of CORS_ORIGINS or the shop's own. The payment provider only
 * ever returns to the shop: its return and cancel URLs point at the bridge
 * route (`/checkout-return`), carrying the client's URL and an HMAC of it
 * (SESSION_SECRET), so that the bridge redirects only to targets the shop
 * itself accepted. The bridge turns PayPal's `token` into the spec's
 * `paymentId` and keeps `PayerID`.
 */

export const BRIDGE_PATH = "/checkout-return";
export const MAX_RETURN_URL_LENGTH = 2048;

function allowedOrigins(): string[] {
  const config = getConfig();
  return [new URL(config.appUrl).origin, ...config.corsOrigins];
}

export function isAllowedClientUrl(value: string): boolean {
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
      description: `Where the shopper lands after ${name === "returnUrl" ? "approving" : "cancelling"} the payment. Must be on an origin listed in CORS_ORIGINS or the shop's own.`,
      format: "uri",
    });

/** The optional client return URLs of an order creation (part of its request body). */
export const paymentReturnSchema = z.object({
  returnUrl: clientUrl("returnUrl"),
  cancelUrl: clientUrl("cancelUrl"),
});

export interface PaymentReturn {
  /** Absolute URLs on this shop, for the payment provider. */
  returnUrl?: string;
  cancelUrl?: string;
}

function signatureOf(target: string, secret: string): string {
  return createHmac("sha256", secret).update(`checkout-return\n${target}`).digest("base64url");
}

/** The bridge URL on this shop that leads to `target` (a URL already checked). */
export function bridgeUrlFor(target: string): string {
  const [secret] = getConfig().sessionSecrets;
  const params = new URLSearchParams({ to: target, sig: signatureOf(target, secret!) });
  return `${getConfig().appUrl}${BRIDGE_PATH}?${params}`;
}

/**
 * Reads `returnUrl` and `cancelUrl` from a request body: 400 with field
 * errors for a URL on another origin; the bridge URLs to give the provider
 * for the ones sent (undefined keeps the shop's own return pages).
 */
export function readPaymentReturn(body: Record<string, unknown>): PaymentReturn | undefined {
  const blank = (value: unknown) => value === undefined || value === null || value === "";
  const parsed = paymentReturnSchema.safeParse({
    returnUrl: blank(body.returnUrl) ? undefined : body.returnUrl,
    cancelUrl: blank(body.cancelUrl) ? undefined : body.cancelUrl,
  });
  if (!parsed.success) {
    const errors = fieldErrorsOf(parsed.error);
    throw badRequest(Object.values(errors).flat()[0]!, errors);
  }
  const { returnUrl, cancelUrl } = parsed.data;
  if (!returnUrl && !cancelUrl) return undefined;
  return {
    ...(returnUrl ? { returnUrl: bridgeUrlFor(returnUrl) } : {}),
    ...(cancelUrl ? { cancelUrl: bridgeUrlFor(cancelUrl) } : {}),
  };
}

/**
 * Where the bridge sends the shopper: the signed target with `paymentId`
 * (PayPal's `token`) and `PayerID` added, or null when the link was not made
 * by this shop (bad signature) or its origin is no longer allowed.
 */
export function clientReturnTarget(bridge: URL): string | null {
  const target = bridge.searchParams.get("to");
  const signature = bridge.searchParams.get("sig");
  if (!target || !signature || !isAllowedClientUrl(target)) return null;
  const given = Buffer.from(signature);
  const signed = getConfig().sessionSecrets.some((secret) => {
    const expected = Buffer.from(signatureOf(target, secret));
    return expected.length === given.length && timingSafeEqual(expected, given);
  });
  if (!signed) return null;
  const url = new URL(target);
  const paymentId = bridge.searchParams.get("token") ?? bridge.searchParams.get("paymentId");
  const payerId = bridge.searchParams.get("PayerID");
  if (paymentId) url.searchParams.set("paymentId", paymentId);
  if (payerId) url.searchParams.set("PayerID", payerId);
  return url.toString();
}
