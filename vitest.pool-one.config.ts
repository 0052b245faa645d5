import { defineConfig } from "vitest/config";
import base from "./vitest.config";

/**
 * The transaction suites again with a database pool of ONE connection
 * (docs/architecture.md, rule 9): a query that asks the pool for a second connection
 * while its transaction holds the only one waits for itself, hits the short
 * acquire timeout and fails the test. Only the service suites that exercise
 * transactions (checkout, capture, reconciler, Pay now, order lifecycle and returns, privacy erasure
 * and its mails, accounts and password reset, staff, cart, addresses, reviews, migrations), to keep the extra CI time small (about
 * 40 s on an idle 2-core machine); the page and API suites call the same
 * services. `npm run test:pool-one`. (The whole suite passes this way too:
 * `npx vitest run` with DATABASE_POOL_MAX=1.)
 */
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: [
      "tests/integration/checkout-create.test.ts",
      "tests/integration/checkout-capture.test.ts",
      "tests/integration/checkout-concurrency.test.ts",
      "tests/integration/checkout-discount-concurrency.test.ts",
      "tests/integration/checkout-delivery-discount.test.ts",
      "tests/integration/checkout-variants.test.ts",
      "tests/integration/checkout-paypal.test.ts",
      "tests/integration/checkout-reconcile.test.ts",
      "tests/integration/checkout-load.test.ts",
      "tests/integration/checkout-states.test.ts",
      "tests/integration/order-lifecycle.test.ts",
      "tests/integration/privacy.test.ts",
      "tests/integration/returns.test.ts",
      "tests/integration/tax.test.ts",
      "tests/integration/tax-concurrency.test.ts",
      "tests/integration/checkout-pay-again.test.ts",
      "tests/integration/gift-cards-admin.test.ts",
      "tests/integration/gift-cards-checkout.test.ts",
      "tests/integration/gift-cards-refunds.test.ts",
      "tests/integration/order-mails.test.ts",
      "tests/integration/account-settings.test.ts",
      "tests/integration/password-reset.test.ts",
      "tests/integration/admin-orders.test.ts",
      "tests/integration/cart-service.test.ts",
      "tests/integration/addresses.test.ts",
      "tests/integration/reviews-rules.test.ts",
      "tests/integration/migrations.test.ts",
      "tests/integration/migration-variants.test.ts",
      "tests/integration/staff-api.test.ts",
    ],
    env: { DATABASE_POOL_MAX: "1", DATABASE_POOL_ACQUIRE_TIMEOUT_MS: "3000" },
    // It runs beside the main run (npm run test:vitest): one file at a time is enough.
    fileParallelism: false,
  },
});
