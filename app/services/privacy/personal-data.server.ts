/**
 * Where the shop keeps data about a person: ONE list, from which both the export (what the person may
 * download) and the erasure (what goes, what is anonymised, what stays) are derived, so the two cannot
 * cover different data (docs/decisions/0053-what-erasure-keeps-and-the-one-list.md).
 *
 * Each entry says, for one table:
 * - `find`: how its rows about the person are found: by a user id column, by an email column, through a
 *   parent entry (a child table's rows of the parent's rows), or by a condition of its own;
 * - `export`: the section of the downloaded file and the columns it shows (never a secret: no hash, token,
 *   session id or encrypted secret is named here), or null when the table has nothing to show;
 * - `erase`: the steps an erasure runs on those rows: delete, set columns, scrub the person's values out
 *   of free text (the audit log, stored webhook payloads), or keep (with why).
 *
 * Conditions are SQL over the table's alias, with the bound values of `PersonKeys`. A table is listed after
 * every table its `find` refers to: the erasure runs the list backwards, so that a row's parent still
 * matches while the row is erased. A new table about people is one more entry (and the schema test in
 * tests/integration/privacy-schema.test.ts fails until it is listed here or in NO_PERSONAL_DATA).
 */

/** Bound as :userId, :email, :provenEmail and :patterns in every condition below. */
export interface PersonKeys {
  userId: string;
  /** The account's email (lower case), as it was before the erasure. */
  email: string;
  /**
   * Whether the shop knows the person holds the mailbox (an admin acting on a request that came by mail).
   * Registration never proves an address, so a guest's orders under the same email join the export and
   * the erasure only then; the person proves it themselves by claiming them into the account first.
   */
  provenEmail: boolean;
  /** ILIKE patterns of the person's distinctive values (email, streets, phones) for tables of free text. */
  patterns: string[];
}

type Find =
  | { userColumn: string }
  | { emailColumn: string }
  /** Rows whose `column` is the key (`id` unless named) of a row the parent entry finds. */
  | { parent: string; column: string; parentKey?: string }
  | { where: (alias: string) => string };

type EraseStep =
  | { delete: true; where?: (alias: string) => string }
  /** Column → SQL expression (over the table's alias `t`). */
  | { set: Record<string, string>; where?: (alias: string) => string }
  /** Replaces the person's values inside free-text columns (column → its SQL type), rows named by `key`. */
  | { scrub: Record<string, "text" | "jsonb">; key: string };

export interface PersonalDataTable {
  table: string;
  find: Find;
  /** The file's section and its fields (field → SQL expression over the alias `t`); null: nothing shown. */
  export: { section: string; fields: Record<string, string>; orderBy?: string; single?: boolean } | null;
  /** Run in this order; an empty list with `keep` says why the rows stay as they are. */
  erase: EraseStep[];
  keep?: string;
}

/** What a review, a ledger entry and the account itself are signed with once the person is gone. */
export const FORMER_CUSTOMER = "Former customer";

/** An address that can never be delivered to, where a column must hold an email (RFC 2606's `.invalid`). */
const erasedEmail = (alias: string) => `'erased-' || ${alias}.id || '@erased.invalid'`;

const ORDERS_IN_PROGRESS_STATUSES = "('confirmed', 'inProcess', 'inShipping')";

export const PERSONAL_DATA: readonly PersonalDataTable[] = [
  {
    table: "users",
    find: { where: (a) => `${a}.id = :userId` },
    export: {
      section: "account",
      single: true,
      fields: {
        id: "t.id",
        userName: "t.user_name",
        email: "t.email",
        role: "t.role",
        createdAt: "t.created_at",
        twoFactorEnabled: `EXISTS (SELECT 1 FROM two_factor_credentials c
                                    WHERE c.user_id = t.id AND c.enabled_at IS NOT NULL)`,
      },
    },
    // The row stays as an empty shell: orders, returns, reviews and the ledger refer to it by id, and
    // the id alone names nobody. It can never sign in again, and its email is free to register.
    erase: [
      {
        set: {
          user_name: `'${FORMER_CUSTOMER}'`,
          email: erasedEmail("t"),
          password_hash: "'erased'",
          permissions: "'{}'",
          disabled_at: "COALESCE(t.disabled_at, now())",
          erased_at: "now()",
        },
      },
    ],
  },
  {
    table: "sessions",
    find: { userColumn: "user_id" },
    export: { section: "sessions", fields: { createdAt: "t.created_at", expiresAt: "t.expires_at" } },
    erase: [{ delete: true }],
  },
  {
    table: "password_reset_tokens",
    find: { userColumn: "user_id" },
    export: null,
    erase: [{ delete: true }],
  },
  {
    table: "two_factor_credentials",
    find: { userColumn: "user_id" },
    export: null,
    erase: [{ delete: true }],
  },
  {
    table: "two_factor_backup_codes",
    find: { userColumn: "user_id" },
    export: null,
    erase: [{ delete: true }],
  },
  {
    table: "two_factor_challenges",
    find: { userColumn: "user_id" },
    export: null,
    erase: [{ delete: true }],
  },
  {
    table: "api_keys",
    find: { userColumn: "created_by" },
    export: {
      section: "apiKeys",
      fields: {
        name: "t.name",
        lastFour: "t.last_four",
        createdAt: "t.created_at",
        revokedAt: "t.revoked_at",
      },
    },
    // A key is the shop's (named by the shop, used by its programs): it stops working, its record stays.
    erase: [{ set: { revoked_at: "COALESCE(t.revoked_at, now())" } }],
  },
  {
    table: "addresses",
    find: { userColumn: "user_id" },
    export: {
      section: "addresses",
      fields: {
        id: "t.id",
        address: "t.address",
        city: "t.city",
        pincode: "t.pincode",
        country: "t.country",
        region: "t.region",
        phone: "t.phone",
        notes: "t.notes",
      },
    },
    erase: [{ delete: true }],
  },
  {
    table: "carts",
    find: { userColumn: "user_id" },
    export: {
      section: "carts",
      fields: { id: "t.id", discountCode: "t.discount_code", updatedAt: "t.updated_at" },
    },
    erase: [{ delete: true }],
  },
  {
    table: "cart_items",
    find: { parent: "carts", column: "cart_id" },
    export: {
      section: "cartItems",
      fields: {
        cartId: "t.cart_id",
        productId: "t.product_id",
        variantId: "t.variant_id",
        quantity: "t.quantity",
      },
    },
    erase: [{ delete: true }],
  },
  {
    table: "cart_notices",
    find: { parent: "carts", column: "cart_id" },
    export: { section: "cartNotices", fields: { message: "t.message", createdAt: "t.created_at" } },
    erase: [{ delete: true }],
  },
  {
    table: "cart_gift_cards",
    find: { parent: "carts", column: "cart_id" },
    export: { section: "cartGiftCards", fields: { cartId: "t.cart_id", addedAt: "t.added_at" } },
    erase: [{ delete: true }],
  },
  {
    table: "cart_gift_card_items",
    find: { parent: "carts", column: "cart_id" },
    export: {
      section: "cartGiftCardLines",
      fields: {
        cartId: "t.cart_id",
        amount: "t.amount",
        recipientEmail: "t.recipient_email",
        recipientName: "t.recipient_name",
        message: "t.message",
      },
    },
    erase: [{ delete: true }],
  },
  {
    table: "wishlist_items",
    find: { userColumn: "user_id" },
    export: {
      section: "wishlist",
      fields: {
        productId: "t.product_id",
        variantId: "t.variant_id",
        priceWhenAdded: "t.price_when_added",
        createdAt: "t.created_at",
      },
    },
    erase: [{ delete: true }],
  },
  {
    table: "stock_alerts",
    find: { userColumn: "user_id" },
    export: {
      section: "stockAlerts",
      fields: {
        productId: "t.product_id",
        variantId: "t.variant_id",
        status: "t.status",
        createdAt: "t.created_at",
      },
    },
    erase: [{ delete: true }],
  },
  {
    table: "reviews",
    find: { userColumn: "user_id" },
    export: {
      section: "reviews",
      fields: {
        productId: "t.product_id",
        rating: "t.review_value",
        message: "t.review_message",
        createdAt: "t.created_at",
      },
    },
    // The contract keeps reviews (they make the product's rating), signed by nobody.
    erase: [{ set: { user_name: `'${FORMER_CUSTOMER}'` } }],
  },
  {
    table: "marketing_consents",
    find: { where: (a) => `(${a}.user_id = :userId OR ${a}.email = :email)` },
    export: {
      section: "marketingConsents",
      fields: { consent: "t.consent", source: "t.source", createdAt: "t.created_at" },
    },
    erase: [{ delete: true }],
  },
  {
    table: "guest_order_claims",
    find: { where: (a) => `(${a}.user_id = :userId OR ${a}.email = :email)` },
    export: null,
    erase: [{ delete: true }],
  },
  {
    table: "orders",
    find: {
      where: (a) =>
        `(${a}.user_id = :userId OR (${a}.user_id IS NULL AND ${a}.guest_email = :email AND :provenEmail))`,
    },
    export: {
      section: "orders",
      orderBy: "t.created_at, t.id",
      fields: {
        id: "t.id",
        orderStatus: "t.order_status",
        paymentStatus: "t.payment_status",
        paymentMethod: "t.payment_method",
        guestEmail: "t.guest_email",
        addressInfo: "t.address_info",
        subtotal: "t.subtotal",
        shippingAmount: "t.shipping_amount",
        discountAmount: "t.discount_amount",
        discountCode: "t.discount_code",
        giftCardAmount: "t.gift_card_amount",
        taxAmount: "t.tax_amount",
        taxLines: "t.tax_lines",
        totalAmount: "t.total_amount",
        refundedAmount: "t.refunded_amount",
        shippingMethod: "t.shipping_method_name",
        trackingNumber: "t.tracking_number",
        carrier: "t.carrier",
        marketingConsent: "t.marketing_consent",
        orderDate: "t.order_date",
        deliveredAt: "t.delivered_at",
      },
    },
    erase: [
      // An order never paid closes: nobody is left to pay it, and its capture must not start afterwards.
      { set: { order_status: "'cancelled'" }, where: (a) => `${a}.order_status = 'pending'` },
      // Kept for the accounts and tax (amounts, lines, tax, country, region, ZIP), without the person.
      {
        set: {
          address_info: `t.address_info || jsonb_build_object('addressId', NULL, 'address', '', 'city', '',
                                                               'phone', '', 'notes', '')`,
          guest_email: `CASE WHEN t.guest_email IS NULL THEN NULL ELSE ${erasedEmail("t")} END`,
        },
      },
    ],
  },
  {
    table: "order_items",
    find: { parent: "orders", column: "order_id" },
    export: {
      section: "orderLines",
      fields: {
        orderId: "t.order_id",
        title: "t.title",
        sku: "t.sku",
        size: "t.size",
        colour: "t.colour",
        price: "t.price",
        quantity: "t.quantity",
        discountCents: "t.discount_cents",
        taxCents: "t.tax_cents",
      },
    },
    erase: [],
    keep: "what was sold, for the accounts and tax; it names nobody",
  },
  {
    table: "order_gift_card_items",
    // Cards the person bought (their orders' lines) and cards bought for them by someone else.
    find: {
      where: (a) =>
        `(${a}.order_id IN (SELECT o.id FROM orders o WHERE ${ordersWhere("o")}) OR ${a}.recipient_email = :email)`,
    },
    export: {
      section: "orderGiftCardLines",
      fields: {
        orderId: "t.order_id",
        amount: "t.amount",
        recipientEmail: "t.recipient_email",
        recipientName: "t.recipient_name",
        message: "t.message",
      },
    },
    // The amount stays with the order for the accounts. A card bought for someone else keeps its recipient (that
    // person's data); the buyer's own words go.
    erase: [
      {
        set: { recipient_email: erasedEmail("t"), recipient_name: "NULL" },
        where: (a) => `${a}.recipient_email = :email`,
      },
      {
        set: { message: "NULL" },
        where: (a) => `${a}.order_id IN (SELECT o.id FROM orders o WHERE ${ordersWhere("o")})`,
      },
    ],
  },
  {
    table: "order_payments",
    find: { parent: "orders", column: "order_id" },
    export: {
      section: "orderPayments",
      fields: {
        orderId: "t.order_id",
        method: "t.method",
        last4: "t.last4",
        amount: "t.amount",
        refundedAmount: "t.refunded_amount",
      },
    },
    erase: [],
    keep: "how an order was paid, for the accounts",
  },
  {
    table: "order_returns",
    find: {
      where: (a) =>
        `(${a}.user_id = :userId OR ${a}.order_id IN (SELECT o.id FROM orders o WHERE ${ordersWhere("o")}))`,
    },
    export: {
      section: "returns",
      fields: {
        id: "t.id",
        orderId: "t.order_id",
        type: "t.type",
        status: "t.status",
        refundCents: "t.refund_cents",
        taxRefundCents: "t.tax_refund_cents",
        shippingRefundCents: "t.shipping_refund_cents",
        trackingNumber: "t.tracking_number",
        carrier: "t.carrier",
        requestedAt: "t.requested_at",
      },
    },
    erase: [],
    keep: "refunds are part of the accounts; a return names nobody once the account is an empty shell",
  },
  {
    table: "order_return_items",
    find: { parent: "order_returns", column: "return_id" },
    export: {
      section: "returnLines",
      fields: {
        returnId: "t.return_id",
        orderItemId: "t.order_item_id",
        quantity: "t.quantity",
        reason: "t.reason",
        newSize: "t.new_size",
        newColour: "t.new_colour",
      },
    },
    erase: [],
    keep: "part of the accounts, names nobody",
  },
  {
    table: "discount_code_uses",
    find: {
      where: (a) =>
        `(${a}.user_id = :userId OR ${a}.guest_email = :email OR ${a}.order_id IN (SELECT o.id FROM orders o WHERE ${ordersWhere("o")}))`,
    },
    export: { section: "discountCodeUses", fields: { orderId: "t.order_id", createdAt: "t.created_at" } },
    erase: [
      { set: { guest_email: `CASE WHEN t.guest_email IS NULL THEN NULL ELSE ${erasedEmail("t")} END` } },
    ],
  },
  {
    table: "abandoned_carts",
    find: { where: (a) => `(${a}.user_id = :userId OR ${a}.email = :email)` },
    export: {
      section: "abandonedCarts",
      fields: {
        items: "t.items",
        value: "t.value",
        lastActivityAt: "t.last_activity_at",
        mailsSent: "t.mails_sent",
      },
    },
    erase: [{ delete: true }],
  },
  {
    table: "abandoned_cart_links",
    find: { parent: "abandoned_carts", column: "abandoned_cart_id" },
    export: null,
    erase: [{ delete: true }],
  },
  {
    table: "stored_value_accounts",
    // The person's store credit, cards given to them, and cards they bought for someone else.
    find: {
      where: (a) =>
        `(${a}.owner_user_id = :userId OR ${a}.recipient_email = :email
          OR ${a}.order_id IN (SELECT o.id FROM orders o WHERE ${ordersWhere("o")}))`,
    },
    export: {
      section: "storedValue",
      fields: {
        id: "t.id",
        kind: "t.kind",
        last4: "t.last4",
        balance: "t.balance",
        initialAmount: "t.initial_amount",
        recipientName: "t.recipient_name",
        recipientEmail: "t.recipient_email",
        senderName: "t.sender_name",
        message: "t.message",
        expiresAt: "t.expires_at",
      },
    },
    // The balance stays (it is money the shop owes). A card given to the person stays spendable by its
    // code; a card they bought for someone else keeps its recipient (that person's data, not theirs).
    erase: [
      {
        set: { recipient_email: erasedEmail("t"), recipient_name: "NULL" },
        where: (a) => `${a}.recipient_email = :email`,
      },
      {
        set: { sender_name: "NULL", message: "NULL" },
        where: (a) => `${a}.order_id IN (SELECT o.id FROM orders o WHERE ${ordersWhere("o")})`,
      },
    ],
  },
  {
    table: "stored_value_entries",
    find: {
      where: (a) =>
        `(${a}.actor_id = :userId OR ${a}.account_id IN (SELECT s.id FROM stored_value_accounts s WHERE s.owner_user_id = :userId OR s.recipient_email = :email))`,
    },
    export: {
      section: "storedValueEntries",
      fields: {
        accountId: "t.account_id",
        at: "t.at",
        amount: "t.amount",
        balanceAfter: "t.balance_after",
        kind: "t.kind",
        reason: "t.reason",
      },
    },
    erase: [{ set: { actor_name: `'${FORMER_CUSTOMER}'` }, where: (a) => `${a}.actor_id = :userId` }],
  },
  {
    table: "audit_log",
    find: {
      where: (a) =>
        `(${a}.actor_id = :userId OR ${a}.entity_id = :userId
          OR ${a}.entity_id IN (SELECT o.id FROM orders o WHERE ${ordersWhere("o")})
          OR ${a}.changes::text ILIKE ANY (ARRAY[:patterns]::text[]))`,
    },
    export: {
      section: "auditEntries",
      orderBy: "t.seq",
      fields: {
        at: "t.at",
        action: "t.action",
        entity: "t.entity",
        entityId: "t.entity_id",
        changes: "t.changes",
      },
    },
    // The action stays (who, by id, did what to which thing, when); the person's values leave it.
    erase: [
      { scrub: { changes: "jsonb", actor_name: "text" }, key: "id" },
      { set: { ip: "NULL" }, where: (a) => `${a}.actor_id = :userId` },
    ],
  },
  {
    table: "webhook_events",
    // An order event's payload, once sent, is the order as it was: with its street and phone.
    find: {
      where: (a) =>
        `(${a}.subject IN (SELECT 'order:' || o.id FROM orders o WHERE ${ordersWhere("o")})
          OR ${a}.payload::text ILIKE ANY (ARRAY[:patterns]::text[]))`,
    },
    export: null,
    erase: [{ scrub: { payload: "jsonb" }, key: "id" }],
  },
  {
    table: "mail_outbox",
    find: { where: (a) => `lower(${a}.recipient) = :email` },
    // Not exported: a mail's body holds its links' tokens.
    export: null,
    erase: [
      // Not yet sent: never sent. (A mail a sender claimed before the erasure committed may still go.)
      { delete: true, where: (a) => `${a}.status <> 'sent'` },
      {
        set: {
          recipient: erasedEmail("t"),
          subject: "''",
          text_body: "''",
          html_body: "''",
          headers: "'{}'::jsonb",
        },
      },
    ],
  },
  {
    table: "rate_limits",
    // Login and lookup counters are keyed by the typed address (rate-limit.server.ts).
    find: { where: (a) => `position(:email in ${a}.key) > 0` },
    export: null,
    erase: [{ delete: true }],
  },
];

/**
 * Tables that look as if they might hold personal data and do not, with why. The schema test accepts a
 * table that refers to people only when it is in PERSONAL_DATA or here.
 */
export const NO_PERSONAL_DATA: Readonly<Record<string, string>> = {
  webhook_deliveries: "a delivery's state; its event's payload is scrubbed in webhook_events",
  webhook_attempts: "status codes and timings of a delivery",
  payment_simulator_orders: "the test payment provider's amounts and line titles, keyed by order id",
  payment_simulator_refunds: "amounts keyed by the simulator's capture id",
  paypal_webhook_events: "PayPal event ids and outcomes, keyed by order id",
};

/** The orders' condition, for the entries that reach the person through their orders. */
function ordersWhere(alias: string): string {
  return whereOf(entryOf("orders"), alias);
}

export function entryOf(table: string): PersonalDataTable {
  const entry = PERSONAL_DATA.find((candidate) => candidate.table === table);
  if (!entry) throw new Error(`${table} is not in the list of personal data`);
  return entry;
}

/** The SQL condition that finds the person's rows of `entry` under `alias`. */
export function whereOf(entry: PersonalDataTable, alias: string): string {
  const find = entry.find;
  if ("userColumn" in find) return `${alias}.${find.userColumn} = :userId`;
  if ("emailColumn" in find) return `${alias}.${find.emailColumn} = :email`;
  if ("where" in find) return find.where(alias);
  // One letter more per level: a condition nested in its parent's never reuses an outer alias.
  const parentAlias = `${alias}p`;
  return `${alias}.${find.column} IN (SELECT ${parentAlias}.${find.parentKey ?? "id"} FROM ${find.parent} ${parentAlias}
           WHERE ${whereOf(entryOf(find.parent), parentAlias)})`;
}

/** A return or exchange the shop has not finished: the parcel or the refund is still to come. */
export const RETURN_OPEN = (alias: string) => `${alias}.status IN ('requested', 'approved', 'received')`;

/** The statuses of an order the shop still owes something on (SPEC: paid, not yet delivered or rejected). */
export const ORDER_IN_PROGRESS = (alias: string) =>
  `((${alias}.order_status IN ${ORDERS_IN_PROGRESS_STATUSES} AND ${alias}.payment_status IN ('paid', 'partially_refunded'))
    OR ${alias}.payment_status = 'capturing')`;
