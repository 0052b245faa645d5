import { createHash, createHmac, randomUUID, timingSafeEqual } from "node:crypto";
import { getConfig } from "~/lib/server/config.server";
import { PaymentProviderUnavailableError } from "./errors.server";

/**
 * Who sent a payment webhook. With PayPal credentials, PayPal's own
 * verify-webhook-signature call decides (with PAYPAL_WEBHOOK_ID): the shop
 * holds no certificate chain of its own to get wrong. Without them, the
 * payment simulator's provider dashboard signs its events with a key derived
 * from the shop's session secret, in PayPal's headers, and only that is
 * accepted. Anything unsigned or badly signed is refused before it is read.
 */

export interface WebhookHeaders {
  transmissionId: string | null;
  transmissionTime: string | null;
  transmissionSig: string | null;
  certUrl: string | null;
  authAlgo: string | null;
}

export function webhookHeadersOf(headers: Headers): WebhookHeaders {
  return {
    transmissionId: headers.get("paypal-transmission-id"),
    transmissionTime: headers.get("paypal-transmission-time"),
    transmissionSig: headers.get("paypal-transmission-sig"),
    certUrl: headers.get("paypal-cert-url"),
    authAlgo: headers.get("paypal-auth-algo"),
  };
}

// --- The simulator's key ---------------------------------------------------------

export const SIMULATOR_AUTH_ALGO = "SIMULATOR-HMAC-SHA256";
const SIMULATOR_WEBHOOK_ID = "payment-simulator";

function simulatorKey(): Buffer {
  return createHmac("sha256", getConfig().sessionSecrets[0]!).update("payment-simulator-webhooks").digest();
}

function simulatorSignature(id: string, time: string, body: string): string {
  const digest = createHash("sha256").update(body).digest("hex");
  return createHmac("sha256", simulatorKey())
    .update(`${id}|${time}|${SIMULATOR_WEBHOOK_ID}|${digest}`)
    .digest("base64");
}

/** The headers the simulator's dashboard sends with `body`, as PayPal names them. */
export function signSimulatorWebhook(body: string, now = new Date()): Record<string, string> {
  const id = randomUUID();
  const time = now.toISOString();
  return {
    "paypal-transmission-id": id,
    "paypal-transmission-time": time,
    "paypal-transmission-sig": simulatorSignature(id, time, body),
    "paypal-auth-algo": SIMULATOR_AUTH_ALGO,
    "paypal-cert-url": "simulator",
  };
}

const SIMULATOR_TOLERANCE_MS = 5 * 60_000;

function verifySimulator(headers: WebhookHeaders, body: string): boolean {
  const { transmissionId: id, transmissionTime: time, transmissionSig: sig, authAlgo } = headers;
  if (!id || !time || !sig || authAlgo !== SIMULATOR_AUTH_ALGO) return false;
  const sent = Date.parse(time);
  if (Number.isNaN(sent) || Math.abs(Date.now() - sent) > SIMULATOR_TOLERANCE_MS) return false;
  const expected = Buffer.from(simulatorSignature(id, time, body), "base64");
  const given = Buffer.from(sig, "base64");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

// --- PayPal ------------------------------------------------------------------------

const PAYPAL_API = { sandbox: "https://api-m.sandbox.paypal.com", live: "https://api-m.paypal.com" } as const;
const PAYPAL_TIMEOUT_MS = 15_000;

async function paypalCall(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, { ...init, signal: AbortSignal.timeout(PAYPAL_TIMEOUT_MS) });
  } catch {
    throw new PaymentProviderUnavailableError();
  }
}

/**
 * PayPal's verdict on a message (POST /v1/notifications/verify-webhook-signature).
 * Throws PaymentProviderUnavailableError when PayPal cannot be asked: the
 * route answers 503 and PayPal sends the event again later.
 */
async function verifyWithPayPal(
  paypal: { clientId: string; clientSecret: string; environment: "sandbox" | "live" },
  webhookId: string,
  headers: WebhookHeaders,
  body: string,
): Promise<boolean> {
  const { transmissionId, transmissionTime, transmissionSig, certUrl, authAlgo } = headers;
  if (!transmissionId || !transmissionTime || !transmissionSig || !certUrl || !authAlgo) return false;
  let event: unknown;
  try {
    event = JSON.parse(body);
  } catch {
    return false;
  }
  const base = PAYPAL_API[paypal.environment];
  const tokenResponse = await paypalCall(`${base}/v1/oauth2/token`, {
    method: "POST",
    headers: {
      Authorization: `Basic ${Buffer.from(`${paypal.clientId}:${paypal.clientSecret}`).toString("base64")}`,
      "Content-Type": "application/x-www-form-urlencoded",
    },
    body: "grant_type=client_credentials",
  });
  if (!tokenResponse.ok) throw new PaymentProviderUnavailableError();
  const { access_token: token } = (await tokenResponse.json()) as { access_token?: string };
  const verdict = await paypalCall(`${base}/v1/notifications/verify-webhook-signature`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify({
      auth_algo: authAlgo,
      cert_url: certUrl,
      transmission_id: transmissionId,
      transmission_sig: transmissionSig,
      transmission_time: transmissionTime,
      webhook_id: webhookId,
      webhook_event: event,
    }),
  });
  if (verdict.status >= 500 || verdict.status === 429) throw new PaymentProviderUnavailableError();
  if (!verdict.ok) return false;
  const { verification_status: status } = (await verdict.json()) as { verification_status?: string };
  return status === "SUCCESS";
}

/** True when the message comes from the payment provider in use (PayPal, or the simulator without credentials). */
export async function verifyPaymentWebhook(headers: Headers, body: string): Promise<boolean> {
  const config = getConfig();
  const parsed = webhookHeadersOf(headers);
  if (!config.paypal) return verifySimulator(parsed, body);
  const webhookId = config.webhooks.paypalWebhookId;
  if (!webhookId) return false;
  return verifyWithPayPal(config.paypal, webhookId, parsed, body);
}
