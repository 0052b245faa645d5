import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import { getConfig } from "../../app/lib/server/config.server";
import { setPaymentGateway } from "../../app/payments/index.server";
import { createPayPalGateway } from "../../app/payments/paypal.server";
import { createPayPalMock } from "../mocks/paypal";
import { resetDatabase } from "./database";

/** The real PayPal adapter with the mock's credentials, in the sandbox, for the shop at `appUrl`. */
export function mockPayPalGateway({
  timeoutMs,
  appUrl = getConfig().appUrl,
}: { timeoutMs?: number; appUrl?: string } = {}) {
  return createPayPalGateway({
    clientId: "mock-client-id",
    clientSecret: "mock-client-secret",
    environment: "sandbox",
    appUrl,
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
  });
}

/**
 * A suite whose orders pay through the real PayPal adapter (@paypal/paypal-server-sdk) against msw standing in for
 * PayPal's REST API. Registers the suite's hooks: msw listening (an unhandled request fails the test), before each
 * test a fresh database and the adapter with `timeoutMs`, after each the handlers and the mock's state reset.
 * Hooks a suite adds after calling it run after these.
 */
export function payingThroughPayPalMock({ timeoutMs }: { timeoutMs: number }) {
  const mock = createPayPalMock();
  const server = setupServer(...mock.handlers);
  beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
  beforeEach(async () => {
    await resetDatabase();
    setPaymentGateway(mockPayPalGateway({ timeoutMs }));
  });
  afterEach(() => {
    server.resetHandlers();
    mock.reset();
  });
  afterAll(() => {
    server.close();
    setPaymentGateway(undefined);
  });
  return { mock, server };
}
