import { getConfig } from "~/lib/server/config.server";
import type { PaymentGateway } from "./gateway.server";
import { createPayPalGateway } from "./paypal.server";
import { createSimulatorGateway } from "./simulator.server";

/**
 * Which payment provider this process talks to. The rest of the shop calls
 * `getPaymentGateway()` and sees only the PaymentGateway interface
 * (gateway.server.ts); the adapters import the interface, never this module.
 */

const holder = globalThis as typeof globalThis & { __shopPaymentGateway?: PaymentGateway };

/**
 * PayPal when PAYPAL_CLIENT_ID and PAYPAL_CLIENT_SECRET are set, else the
 * built-in simulator. One instance per process (the SDK client keeps its
 * OAuth token between calls).
 */
export function getPaymentGateway(): PaymentGateway {
  if (!holder.__shopPaymentGateway) {
    const config = getConfig();
    holder.__shopPaymentGateway = config.paypal
      ? createPayPalGateway({ ...config.paypal, appUrl: config.appUrl })
      : createSimulatorGateway();
  }
  return holder.__shopPaymentGateway;
}

/** For tests: use this gateway (or, with undefined, choose again from the configuration). */
export function setPaymentGateway(gateway: PaymentGateway | undefined): void {
  holder.__shopPaymentGateway = gateway;
}
