import { createHash, randomBytes } from "node:crypto";
import { QueryTypes } from "sequelize";
import { getDb } from "../../app/models/db.server";

/**
 * Guest orders as migration 0043 stores them (no user, the buyer's email, the hash of the private link's
 * token), written straight into the table: the claim and the clean-up are tested without the guest
 * checkout that creates them.
 */

export interface GuestOrderInput {
  email: string;
  orderStatus?: string;
  paymentStatus?: string;
  cartId?: string | null;
  total?: number;
}

export async function insertGuestOrder(input: GuestOrderInput): Promise<string> {
  const [row] = await getDb().sequelize.query<{ id: string }>(
    `INSERT INTO orders (user_id, guest_email, guest_token_hash, cart_id, address_info, order_status,
                         payment_status, total_amount)
     VALUES (NULL, :email, :tokenHash, :cartId, :addressInfo::jsonb,
             :orderStatus, :paymentStatus, :total)
     RETURNING id`,
    {
      replacements: {
        email: input.email.toLowerCase(),
        addressInfo: JSON.stringify({
          addressId: null,
          address: "1 Main St",
          city: "Springfield",
          pincode: "12345",
          phone: "5550100",
          notes: "",
        }),
        tokenHash: createHash("sha256").update(randomBytes(32)).digest("hex"),
        cartId: input.cartId ?? null,
        orderStatus: input.orderStatus ?? "confirmed",
        paymentStatus: input.paymentStatus ?? "paid",
        total: input.total ?? 25,
      },
      type: QueryTypes.SELECT,
    },
  );
  return row!.id;
}

/** Each order's user (null: still a guest's), by id. */
export async function ownersOf(orderIds: string[]): Promise<Record<string, string | null>> {
  const rows = await getDb().sequelize.query<{ id: string; userId: string | null }>(
    `SELECT id, user_id AS "userId" FROM orders WHERE id IN (:orderIds)`,
    { replacements: { orderIds }, type: QueryTypes.SELECT },
  );
  return Object.fromEntries(rows.map((row) => [row.id, row.userId]));
}
