import { QueryTypes } from "sequelize";
import { getDb } from "~/models/db.server";
import { GUEST_CART_DAYS } from "./cart-owner.server";
import { inCheckout } from "./orders.server";

/**
 * Visitors' carts left alone (docs/decisions/0043-open-storefront-and-guest-carts.md): a `carts` row without
 * a user that neither it nor any of its lines changed for GUEST_CART_DAYS (its cookie's life, so nobody can
 * name it any more) is deleted, its lines with it. The payment reconciler's round runs it (once per machine,
 * every minute), in batches of short statements, so that a backlog never holds many locks for long.
 *
 * Several machines may run it at once: each batch takes its rows `FOR UPDATE SKIP LOCKED`, and a cart that a
 * visitor is changing at that moment (its row locked) is skipped and, changed, no longer old. A cart that an
 * order in its checkout still names is kept: the capture of a guest's order checks the cart it was made from
 * against the buyer's cookie, and ON DELETE SET NULL would take that away. Once the order is paid, cancelled
 * or rejected its lines are its own, and the cart goes (the order's `cart_id` becomes NULL).
 */

export interface GuestCartCleanupOptions {
  batchSize?: number;
  /** At most this many batches a run: a large backlog is finished by the next runs. */
  maxBatches?: number;
}

/** Deletes one batch of abandoned visitors' carts; answers how many. */
async function removeBatch(batchSize: number): Promise<number> {
  const removed = await getDb().sequelize.query<{ id: string }>(
    `DELETE FROM carts WHERE id IN (
       SELECT c.id FROM carts c
        WHERE c.user_id IS NULL AND c.updated_at < now() - make_interval(days => :days)
          AND NOT EXISTS (SELECT 1 FROM cart_items ci
                           WHERE ci.cart_id = c.id AND ci.updated_at >= now() - make_interval(days => :days))
          AND NOT EXISTS (SELECT 1 FROM orders o WHERE o.cart_id = c.id AND ${inCheckout("o")})
        ORDER BY c.updated_at
        LIMIT :batchSize
        FOR UPDATE OF c SKIP LOCKED)
     RETURNING id`,
    { replacements: { days: GUEST_CART_DAYS, batchSize }, type: QueryTypes.SELECT },
  );
  return removed.length;
}

/** Deletes the visitors' carts left alone for GUEST_CART_DAYS, batch by batch; answers how many went. */
export async function removeAbandonedGuestCarts(options: GuestCartCleanupOptions = {}): Promise<number> {
  const batchSize = options.batchSize ?? 500;
  const maxBatches = options.maxBatches ?? 20;
  let total = 0;
  for (let batch = 0; batch < maxBatches; batch += 1) {
    const removed = await removeBatch(batchSize);
    total += removed;
    if (removed < batchSize) break;
  }
  return total;
}
