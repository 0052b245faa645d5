import { getConfig } from "~/lib/server/config.server";
import { processSingleton } from "~/lib/server/process-singleton.server";
import type { PaymentGateway } from "./gateway.server";
import { createPayPalGateway } from "./paypal.server";
import { createSimulatorGateway } from "./simulator.server";

/**
 * Which payment provider this process talks to. The rest of the shop calls
 * `getPaymentGateway()` and sees only the PaymentGateway interface
 * (gateway.server.ts); the adapters import the interface, never this module.
 */

const current = () => processSingleton<{ gateway?: PaymentGateway }>("payment-gateway", () => ({}));

/**
 * PayPal when PAYPAL_CLIENT_ID and PAYPAL_CLIENT_SECRET are set, else the
 * built-in simulator. One instance per process (the SDK client keeps its
 * OAuth token between calls).
 */
export function getPaymentGateway(): PaymentGateway {
  const state = current();
  if (!state.gateway) {
    const config = getConfig();
    state.gateway = config.paypal
      ? createPayPalGateway({ ...config.paypal, appUrl: config.appUrl })
      : createSimulatorGateway();
  }
  return state.gateway;
}

/** For tests: use this gateway (or, with undefined, choose again from the configuration). */
export function setPaymentGateway(gateway: PaymentGateway | undefined): void {
  current().gateway = gateway;
}
