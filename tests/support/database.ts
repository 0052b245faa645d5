import { getDb } from "../../app/models/db.server";
import { hashPassword } from "../../app/lib/server/password.server";
import type { Role } from "../../app/models/index.server";

/** Empties every table (the schema stays): each test starts from nothing. */
export async function resetDatabase(): Promise<void> {
  await getDb().sequelize.query(
    `TRUNCATE users, sessions, products, carts, cart_items, addresses, orders, order_items,
              reviews, feature_images, rate_limits, payment_simulator_orders, payment_simulator_refunds,
              mail_outbox, password_reset_tokens, uploaded_images, audit_log, shipping_methods, discount_codes,
              tax_rates, webhook_endpoints, webhook_events, paypal_webhook_events, store_settings,
              stored_value_accounts
              RESTART IDENTITY CASCADE`,
  );
}

let cachedHash: Promise<string> | undefined;

/** A user with password "password123" (hashed once per file to keep tests fast). */
export async function createTestUser(
  overrides: {
    email?: string;
    userName?: string;
    role?: Role;
    password?: string;
    permissions?: string[];
  } = {},
) {
  const { User } = getDb().models;
  const password = overrides.password ?? "password123";
  const passwordHash =
    overrides.password === undefined
      ? await (cachedHash ??= hashPassword("password123"))
      : await hashPassword(password);
  const user = await User.create({
    userName: overrides.userName ?? "Test Shopper",
    email: (
      overrides.email ?? `shopper-${Math.random().toString(36).slice(2, 10)}@example.com`
    ).toLowerCase(),
    passwordHash,
    role: overrides.role ?? "user",
    permissions: overrides.permissions ?? [],
  });
  return { ...user.get({ plain: true }), password };
}
