import { WEBHOOK_EVENT_TYPES } from "~/lib/shared/webhooks";
import { LEDGER_KINDS } from "~/lib/shared/gift-cards";
import { CODE_MAX_LENGTH } from "~/lib/shared/two-factor";
import { TAX_APPLIES_TO } from "~/lib/shared/order-tax";
import { PERMISSIONS } from "~/lib/shared/permissions";
import { productImagesInputSchema } from "~/lib/shared/product-schema";
import { variantsInputSchema } from "~/lib/shared/variant-schema";
import { productInputSchema } from "~/lib/shared/admin-schemas";
import { z } from "zod";
import {
  dataEnvelope,
  productSchema,
  orderSchema,
  cartWithDiscountSchema,
  adminShippingMethodSchema,
  discountCodeOutSchema,
  returnSchema,
  uuid,
  money,
  cartSchema,
  addressSchema,
  sessionUserSchema,
} from "./schemas.server";
/** The answers' and bodies' shapes that several route modules declare (app/web/openapi/operation.server.ts). */

export const dateTime = z.string().meta({ format: "date-time" });

export const productEnvelope = dataEnvelope(productSchema);

/**
 * The product's fields with its sizes and colours and its pictures (API.md): without `variants`, `totalStock`
 * is its one variant's; with `images`, `image` is their first.
 */
export const productBodySchema = z.object({
  ...productInputSchema.shape,
  image: productInputSchema.shape.image.optional().meta({
    description: "Required without images (a one-picture gallery); with images, their first is used",
  }),
  totalStock: productInputSchema.shape.totalStock.optional().meta({
    type: ["integer", "string"],
    description: "Required without variants (the one variant's stock); with variants, their sum is used",
  }),
  variants: variantsInputSchema.optional(),
  images: productImagesInputSchema.optional(),
});

export const orderEnvelope = dataEnvelope(orderSchema);

/**
 * An order's details as its owner, a guest's link and the admin read them: the order, and beside it its
 * returns and exchanges, each with its items and status (API.md, "Size exchanges").
 */
export const orderDetailsEnvelope = z.object({
  success: z.literal(true),
  data: orderSchema,
  returns: z.array(returnSchema).meta({
    description: "The order's returns and exchanges (`type`), newest first, each with its items and status",
  }),
});

/** The `version` an admin edit was based on: optional, and without it the edit applies as the spec's clients expect. */
export const editVersion = z.int().min(1).optional().meta({
  description: "The version the edit was based on: 409 when the thing changed since; omit to apply anyway",
});

export const amount = z.union([z.number(), z.string()]).meta({ description: "An amount such as 4.95" });

export const cartWithDiscountEnvelope = dataEnvelope(cartWithDiscountSchema);

export const methodEnvelope = dataEnvelope(adminShippingMethodSchema);

export const discountEnvelope = dataEnvelope(discountCodeOutSchema);

export const returnEnvelope = dataEnvelope(returnSchema);

export const staffMemberSchema = z
  .object({
    _id: uuid,
    userName: z.string(),
    email: z.string(),
    role: z.enum(["admin", "staff"]),
    permissions: z.array(z.enum(PERMISSIONS)).meta({ description: "An admin holds every one" }),
    disabled: z.boolean(),
    invitationPending: z.boolean().meta({ description: "Invited, and the set-a-password link not used yet" }),
    twoFactorEnabled: z
      .boolean()
      .meta({ description: "Two-factor sign-in is on (DELETE /api/admin/staff/{id}/two-factor resets it)" }),
    createdAt: dateTime,
  })
  .meta({ id: "StaffMember" });

export const itemBody = z.object({
  userId: uuid.optional().meta({ description: "The caller's own id (optional)" }),
  productId: uuid,
  variantId: uuid
    .optional()
    .meta({ description: "The size and colour; a product with one variant needs none" }),
});

export const alertSchema = z
  .object({
    _id: uuid,
    productId: uuid,
    variantId: uuid,
    title: z.string(),
    size: z.string().nullable(),
    colour: z.string().nullable(),
    status: z.enum(["waiting", "notified"]).meta({
      description: "waiting until the variant comes back; notified once it did (mailed once)",
    }),
    createdAt: dateTime,
    notifiedAt: dateTime.nullable(),
  })
  .meta({ id: "StockAlert" });

export const wishlistItemSchema = z
  .object({
    _id: uuid,
    productId: uuid,
    variantId: uuid.nullable(),
    title: z.string(),
    image: z.string(),
    size: z.string().nullable(),
    colour: z.string().nullable(),
    price: money,
    salePrice: money.meta({ description: "0 when not on sale" }),
    priceWhenAdded: money.meta({
      description: "What a shopper paid for it (the sale price when on sale) when it was added",
    }),
    inStock: z.boolean(),
    addedAt: dateTime,
  })
  .meta({ id: "WishlistItem" });

export const alertEnvelope = dataEnvelope(alertSchema);

export const itemEnvelope = dataEnvelope(wishlistItemSchema);

export const taxRateSchema = z
  .object({
    _id: uuid,
    name: z.string(),
    country: z.string().meta({ description: "ISO 3166-1 alpha-2" }),
    region: z.string().nullable().meta({ description: "null: the whole country" }),
    rate: z.number().min(0).max(100).meta({ description: "Percent, up to four decimals" }),
    appliesTo: z.array(z.enum(TAX_APPLIES_TO)).min(1),
    exemptBelow: money
      .nullable()
      .meta({ description: "A unit price paid below it is not taxed by this rate" }),
    example: z.boolean().meta({ description: "One of the demo data's example rates" }),
    version: z.int().min(1),
  })
  .meta({ id: "TaxRate" });

export const rateEnvelope = dataEnvelope(taxRateSchema);

export const codeBody = z.object({
  code: z.string().min(1).max(CODE_MAX_LENGTH).meta({
    description: "The 6-digit code of the authenticator app, or an unused backup code (dashes optional)",
  }),
});

export const endpointSchema = z
  .object({
    _id: z.uuid(),
    url: z.string().meta({ format: "uri" }),
    events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
    active: z.boolean(),
    disabledReason: z
      .string()
      .nullable()
      .meta({ description: "Why the shop switched it off (20 failures in a row); null otherwise" }),
    createdAt: z.string().meta({ format: "date-time" }),
  })
  .meta({ id: "WebhookEndpoint" });

export const cartEnvelope = dataEnvelope(cartSchema);

export const addressEnvelope = dataEnvelope(addressSchema);

export const userEnvelope = z.object({
  success: z.literal(true),
  message: z.string(),
  user: sessionUserSchema,
});

export const endedSessionsEnvelope = z.object({
  success: z.literal(true),
  message: z.string(),
  endedSessions: z.number().int().min(0).meta({ description: "How many other sessions ended" }),
});

export const giftCardSchema = z
  .object({
    _id: uuid,
    last4: z
      .string()
      .length(4)
      .meta({ description: "The code's last four characters: all the shop shows of it" }),
    balance: money,
    initialAmount: money,
    recipientEmail: z.string(),
    recipientName: z.string().nullable(),
    orderId: uuid.nullable().meta({ description: "The order that bought it; null when an admin issued it" }),
    disabled: z.boolean(),
    expiresAt: dateTime.nullable().meta({ description: "When it stops paying; null: never" }),
    createdAt: dateTime,
    version: z.int().min(1),
  })
  .meta({ id: "GiftCard" });

export const ledgerEntrySchema = z
  .object({
    at: dateTime,
    amount: money.meta({ description: "Added to the balance (negative: taken)" }),
    balanceAfter: money,
    orderId: uuid.nullable(),
    kind: z.enum(LEDGER_KINDS),
    reason: z.string(),
    actor: z.string().meta({ description: "Who made the change: a person's name, or system" }),
  })
  .meta({ id: "LedgerEntry" });

/** The cart with the gift cards applied to it (the gift card calls' answer). */
export const cartWithGiftCardsEnvelope = dataEnvelope(
  cartSchema.extend({
    giftCards: z
      .array(
        z.object({
          last4: z.string().length(4),
          balance: money.meta({ description: "What the card can pay now" }),
          amountApplied: money.meta({
            description: "What it would pay of the cart's total as priced now (tax is added at checkout)",
          }),
        }),
      )
      .meta({ description: "The cards applied, in the order they are spent (at most 5)" }),
  }),
);
