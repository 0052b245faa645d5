import { defineConfig } from "vitest/config";
import base from "./vitest.config";

/**
 * The transaction suites again with a database pool of ONE connection
 * (ARCHITECTURE rule 9): a query that asks the pool for a second connection
 * while its transaction holds the only one waits for itself, hits the short
 * acquire timeout and fails the test. Only the files that exercise
 * transactions (checkout, capture, reconciler, cart, addresses, reviews,
 * admin orders), to keep the extra CI time small. `npm run test:pool-one`.
 */
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: [
      "tests/integration/checkout-*.test.ts",
      "tests/integration/order-lifecycle.test.ts",
      "tests/integration/orders-api.test.ts",
      "tests/integration/admin-orders.test.ts",
      "tests/integration/cart-service.test.ts",
      "tests/integration/cart-api.test.ts",
      "tests/integration/addresses.test.ts",
      "tests/integration/reviews-rules.test.ts",
      "tests/integration/migrations.test.ts",
    ],
    env: { DATABASE_POOL_MAX: "1", DATABASE_POOL_ACQUIRE_TIMEOUT_MS: "3000" },
  },
});
