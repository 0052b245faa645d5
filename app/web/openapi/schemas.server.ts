import { z } from "zod";
import { PERMISSIONS } from "~/lib/shared/permissions";
import { RETURN_REASONS, RETURN_STATUSES, RETURN_TYPES } from "~/lib/shared/returns";
import { addressInputSchema } from "~/lib/shared/address-schema";
import { BRANDS, CATEGORIES } from "~/lib/shared/catalog-options";
import {
  MAX_IMAGE_ALT_LENGTH,
  MAX_PRODUCT_IMAGES,
  PRODUCT_FIELD_LIST,
  type ProductField,
} from "~/lib/shared/product";
import { ALL_SIZES, COLOURS } from "~/lib/shared/variants";
import { ORDER_STATUSES, PAYMENT_STATUSES } from "~/lib/shared/order-options";

import { DISCOUNT_TYPES } from "~/lib/shared/delivery-schemas";

import { pagingQuerySchema } from "~/lib/server/paging.server";

import { ORDERS_PAGING } from "~/services/order-search.server";
import { ORDER_SEARCH_MAX } from "~/lib/shared/order-options";
import { CARRIERS } from "~/lib/shared/tracking";

/**
 * The shapes of the JSON API's answers (API.md), as zod schemas. The OpenAPI
 * document (openapi.server.ts) is generated from them and from the request
 * schemas that the routes validate with; the contract tests check every
 * answer the integration tests receive against that document. Server-only:
 * nothing here reaches a browser bundle.
 */

export const uuid = z.string().meta({ format: "uuid", description: "An opaque id (UUID)" });
export const money = z.number().meta({ description: "An amount in dollars, at most two decimals" });
const imageUrl = z.string().meta({
  format: "uri",
  description: "The absolute URL of the image (on APP_URL, or the storage's public URL)",
});
const timestamp = z.string().meta({ format: "date-time" });

export const errorSchema = z
  .object({
    success: z.literal(false),
    message: z.string(),
    errors: z
      .record(z.string(), z.array(z.string()))
      .optional()
      .meta({ description: "Validation failures: field name → messages" }),
  })
  .meta({ id: "Error", description: "Every refusal: 4xx or 5xx, never an HTML page" });

export const paginationSchema = z
  .object({
    page: z.int().min(1),
    limit: z.int().min(1),
    total: z.int().min(0),
    pages: z.int().min(0).meta({ description: "How many pages the list fills: 0 when it is empty" }),
  })
  .meta({ id: "Pagination" });

export const sessionUserSchema = z
  .object({
    id: uuid,
    userName: z.string(),
    email: z.string(),
    role: z.enum(["user", "admin", "staff"]),
    permissions: z.array(z.enum(PERMISSIONS)).optional().meta({
      description: "The back office's areas the person may open (admin: every one); absent for a shopper",
    }),
    twoFactorEnabled: z.boolean().optional().meta({ description: "Whether two-factor sign-in is on" }),
  })
  .meta({ id: "SessionUser" });

/** How the API shows one product field, by its kind (lib/shared/product.ts). */
function productFieldOutput(field: ProductField): z.ZodType {
  const schema = productFieldOutputByKind(field);
  return field.jsonDescription
    ? schema.meta({ ...schema.meta(), description: field.jsonDescription })
    : schema;
}

function productFieldOutputByKind(field: ProductField): z.ZodType {
  switch (field.kind) {
    case "id":
      return uuid;
    case "image":
      return imageUrl;
    case "text":
      return field.required ? z.string() : z.string().nullable().meta({ description: "null when not given" });
    case "choice":
      return z.enum(field.options as [string, ...string[]]);
    case "money":
      return field.required ? money : money.meta({ description: "0 when there is none" });
    case "count":
      return z.int().min(0);
    case "rating":
      return z.number().min(0).max(5);
    case "version":
      return z.int().min(1);
  }
}

const sizeValue = z
  .string()
  .nullable()
  .meta({
    description: `A size of its category's scale (${ALL_SIZES.map((size) => size.value).join(", ")}), or null`,
  });
const colourValue = z
  .string()
  .nullable()
  .meta({
    description: `A colour (${COLOURS.map((colour) => colour.value).join(", ")}), or null`,
  });

const variantSchema = z
  .object({
    _id: uuid,
    sku: z.string().meta({ description: "Unique in the shop" }),
    size: sizeValue,
    colour: colourValue,
    totalStock: z.int().min(0),
    price: money.meta({ description: "This variant's price (its own, or else its product's)" }),
    salePrice: money.meta({ description: "This variant's sale price; 0 when not on sale" }),
  })
  .meta({ id: "Variant", description: "A size and colour of a product, with its own SKU and stock" });

const productImageSchema = z
  .object({
    url: z.string().meta({
      description: "The picture's original (metadata stripped), as an absolute URL; add ?w= for a width",
    }),
    alt: z
      .string()
      .max(MAX_IMAGE_ALT_LENGTH)
      .meta({ description: "Its text alternative; empty for a decorative picture" }),
    width: z
      .int()
      .min(1)
      .nullable()
      .meta({ description: "Its width in pixels; null when unknown (another site's URL)" }),
    height: z.int().min(1).nullable().meta({ description: "Its height in pixels; null when unknown" }),
    colour: colourValue.meta({ description: "The variant colour it shows, or null" }),
  })
  .meta({ id: "ProductImage", description: "One picture of a product's gallery" });

const productFieldsOutput = Object.fromEntries(
  PRODUCT_FIELD_LIST.map((field) => [
    field.kind === "id" ? field.json : field.name,
    productFieldOutput(field),
  ]),
);

export const productSchema = z
  .object({
    ...productFieldsOutput,
    price: money.meta({ description: "Its cheapest variant's price (by the price the shopper pays)" }),
    salePrice: money.meta({ description: "Its cheapest variant's sale price; 0 when not on sale" }),
    totalStock: z.int().min(0).meta({ description: "The sum of its variants' stock" }),
    variants: z
      .array(variantSchema)
      .min(1)
      .meta({ description: "Its sizes and colours in display order (sizes in their scale's order)" }),
    images: z
      .array(productImageSchema)
      .min(1)
      .max(MAX_PRODUCT_IMAGES)
      .meta({ description: "Its pictures in order; the first is `image`" }),
  })
  .meta({ id: "Product" });

/** A gift card bought in the cart (docs/decisions/0051): removed by its `_id` in the product's place. */
export const cartGiftCardLineSchema = z
  .object({
    _id: uuid,
    giftCard: z.object({
      amount: money,
      recipientEmail: z.string(),
      recipientName: z.string().nullable(),
      message: z.string().nullable(),
    }),
    title: z.string(),
    price: money,
    quantity: z.literal(1),
  })
  .meta({ id: "CartGiftCardLine" });

export const cartSchema = z
  .object({
    _id: uuid.nullable().meta({ description: "null until the first item is added" }),
    userId: z
      .string()
      .meta({ description: "The shopper's id, or \"guest\" for a visitor's cart (the open storefront)" }),
    items: z.array(
      z.union([
        z.object({
          productId: uuid.nullable(),
          variantId: uuid,
          sku: z.string(),
          size: sizeValue,
          colour: colourValue,
          title: z.string(),
          image: imageUrl,
          price: money.meta({ description: "The variant's current price" }),
          salePrice: money.meta({ description: "The variant's current sale price; 0 when not on sale" }),
          quantity: z.int().min(1),
        }),
        cartGiftCardLineSchema,
      ]),
    ),
  })
  .meta({ id: "Cart" });

export const addressSchema = z
  .object({
    _id: uuid,
    userId: uuid,
    address: z.string(),
    city: z.string(),
    pincode: z.string(),
    phone: z.string(),
    notes: z.string(),
    country: z
      .string()
      .meta({ description: "ISO 3166-1 alpha-2; the shop's country (SHOP_COUNTRY) when none was sent" }),
    region: z
      .string()
      .nullable()
      .meta({ description: "State, province or county code; for US derived from a five-digit ZIP code" }),
  })
  .meta({ id: "Address" });

const addressSnapshotSchema = z.object({
  addressId: uuid.nullable(),
  address: z.string(),
  city: z.string(),
  pincode: z.string(),
  phone: z.string(),
  notes: z.string(),
  country: z.string().meta({ description: "The destination the order was taxed for" }),
  region: z.string().nullable(),
});

export const taxLineSchema = z
  .object({ name: z.string(), rate: z.number().meta({ description: "Percent" }), amount: money })
  .meta({ id: "TaxLine" });

export const orderSchema = z
  .object({
    _id: uuid,
    userId: uuid.nullable().meta({ description: "null for a guest's order (see guestEmail)" }),
    guestEmail: z.string().nullable().meta({
      format: "email",
      description: "The email a guest gave at checkout; null for a shopper's order",
    }),
    cartId: uuid.nullable(),
    cartItems: z.array(
      z.object({
        productId: uuid.nullable().meta({ description: "null once the product was deleted" }),
        variantId: uuid.nullable().meta({ description: "The variant ordered, as it was then" }),
        sku: z.string().nullable(),
        size: sizeValue,
        colour: colourValue,
        title: z.string(),
        image: imageUrl,
        price: money,
        quantity: z.int().min(1),
        discountAmount: money.meta({
          description: "The line's share of the order's discount (the shares add up to discountAmount)",
        }),
        returnedQuantity: z.int().min(0).meta({
          description:
            "Units of the line in returns and exchanges that were not rejected (what may no longer be returned or exchanged)",
        }),
        exchangedQuantity: z.int().min(0).meta({
          description: "Of returnedQuantity, the units in exchanges (sent back for another size or colour)",
        }),
        taxAmount: money.meta({ description: "The line's tax, all rates together" }),
      }),
    ),
    addressInfo: addressSnapshotSchema,
    orderStatus: z.enum(ORDER_STATUSES),
    paymentMethod: z.string(),
    paymentStatus: z.enum(PAYMENT_STATUSES),
    totalAmount: money.meta({
      description:
        "subtotal − discountAmount + shippingAmount (+ taxAmount unless pricesIncludeTax), never below 0",
    }),
    subtotal: money.meta({ description: "The items' sum at the prices paid" }),
    shippingAmount: money.meta({ description: "0 when delivery is free (freeOver reached, or no options)" }),
    discountAmount: money,
    taxAmount: money.meta({
      description: "The lines' tax and the delivery's: the parts add up to it exactly",
    }),
    taxLines: z
      .array(taxLineSchema)
      .meta({ description: "One per rate that applied, amounts summed over the lines" }),
    pricesIncludeTax: z
      .boolean()
      .meta({ description: "true: the tax is inside the prices (VAT), not added" }),
    shippingMethod: z
      .object({ name: z.string(), price: money })
      .nullable()
      .meta({ description: "The delivery option as it was when ordered; null before there were options" }),
    discountCode: z.string().nullable(),
    orderDate: timestamp,
    orderUpdateDate: timestamp,
    paymentId: z.string().nullable().meta({ description: "The payment provider's order id" }),
    payerId: z.string().nullable(),
    userName: z.string().meta({ description: "The customer's user name; \"Guest\" for a guest's order" }),
    trackingNumber: z.string().nullable().meta({ description: "Set by the admin when the order ships" }),
    carrier: z.enum(CARRIERS).nullable(),
    trackingUrl: z
      .string()
      .nullable()
      .meta({ format: "uri", description: "The carrier's tracking page, for carriers with a known one" }),
    version: z.int().min(1).meta({
      description:
        "Raised by every change; send it back with an admin update to get 409 when someone else changed the order since",
    }),
    refundedAmount: money.meta({ description: "Money sent back so far; never more than was captured" }),
    deliveredAt: timestamp.nullable().meta({ description: "When the order was delivered" }),
    returnableUntil: timestamp
      .nullable()
      .meta({ description: "The end of the return window (RETURN_WINDOW_DAYS after delivery)" }),
    disputeStatus: z.enum(["open", "resolved"]).nullable().meta({
      description: "A payment dispute at the provider: while open, refunds and return receipts answer 409",
    }),
    giftCardAmount: money.optional().meta({
      description: "What gift cards and store credit pay of the total; PayPal is asked for the rest",
    }),
    payments: z
      .array(
        z.object({
          method: z.enum(["giftCard", "storeCredit", "paypal"]),
          last4: z.string().length(4).optional().meta({ description: "A card's last four characters" }),
          amount: money,
        }),
      )
      .optional()
      .meta({ description: "How the total is paid: each card and the store credit in order, then PayPal" }),
    giftCardItems: z
      .array(
        z.object({
          _id: uuid,
          amount: money,
          recipientEmail: z.string(),
          recipientName: z.string().nullable(),
          message: z.string().nullable(),
          last4: z
            .string()
            .length(4)
            .nullable()
            .meta({ description: "The issued card's last four characters; null until the order is paid" }),
        }),
      )
      .optional()
      .meta({ description: "The gift cards the order buys (in the subtotal and total, untaxed)" }),
  })
  .meta({ id: "Order" });

export const returnSchema = z
  .object({
    _id: uuid,
    orderId: uuid,
    userId: uuid.nullable().meta({ description: "null for a guest's return" }),
    userName: z.string(),
    email: z.string(),
    type: z.enum(RETURN_TYPES).meta({ description: "refund, or exchange (another size; no money moves)" }),
    status: z.enum(RETURN_STATUSES),
    refundTo: z.enum(["original", "storeCredit"]).optional().meta({
      description: "Where the refund goes: the original payment (default) or the shopper's store credit",
    }),
    items: z.array(
      z.object({
        variantId: uuid.nullable(),
        productId: uuid.nullable(),
        title: z.string(),
        size: sizeValue,
        colour: colourValue,
        sku: z.string().nullable(),
        quantity: z.int().min(1),
        reason: z.enum(RETURN_REASONS),
        refundAmount: money
          .nullable()
          .meta({ description: "Set when received: the line's price less its share of the discount" }),
        newVariantId: uuid
          .nullable()
          .optional()
          .meta({ description: "An exchange's item: the variant sent instead (null once deleted)" }),
        newSize: sizeValue.optional(),
        newColour: colourValue.optional(),
      }),
    ),
    refundShipping: z.boolean(),
    refundAmount: money
      .nullable()
      .meta({ description: "Set when received: the lines' refunds plus shippingRefundAmount" }),
    shippingRefundAmount: money,
    requestedAt: timestamp,
    decidedAt: timestamp.nullable(),
    receivedAt: timestamp.nullable(),
    refundedAt: timestamp.nullable(),
    trackingNumber: z
      .string()
      .nullable()
      .meta({ description: "An exchange's replacement parcel, once shipped" }),
    carrier: z.string().nullable(),
    shippedAt: timestamp.nullable(),
  })
  .meta({ id: "Return" });

export const reviewSchemaOut = z
  .object({
    _id: uuid,
    productId: uuid,
    userId: uuid,
    userName: z.string(),
    reviewMessage: z.string(),
    reviewValue: z.int().min(1).max(5),
    createdAt: timestamp,
  })
  .meta({ id: "Review" });

export const featureSchema = z
  .object({
    _id: uuid,
    image: imageUrl,
    title: z.string().nullable().meta({ description: "The banner's title; null: the shop's default" }),
    subtitle: z.string().nullable(),
    link: z
      .string()
      .nullable()
      .meta({ description: "A path on the shop that Shop now opens; null: the listing" }),
  })
  .meta({ id: "FeatureImage" });

// --- Envelopes --------------------------------------------------------------------

/** `{ success: true, message?, data }` */
export function dataEnvelope(data: z.ZodType, options: { paged?: boolean } = {}) {
  return z.object({
    success: z.literal(true),
    message: z.string().optional(),
    data,
    ...(options.paged ? { pagination: paginationSchema } : {}),
  });
}

export const messageEnvelope = z.object({ success: z.literal(true), message: z.string() });

// --- Requests that the routes validate with these schemas ------------------------

/** The paging that the routes validate with (lib/server/paging.server.ts). */
export { apiPagingSchema } from "~/web/catalog-api.server";

export const adminOrderQuerySchema = pagingQuerySchema(ORDERS_PAGING).extend({
  status: z
    .enum(["all", ...ORDER_STATUSES])
    .optional()
    .meta({ description: "Only orders with this orderStatus" }),
  q: z.string().max(ORDER_SEARCH_MAX).optional().meta({
    description:
      "An order id, an order number (the id's first 8 characters), or part of the customer's email or name (case-insensitive)",
  }),
  paymentStatus: z
    .enum(["all", ...PAYMENT_STATUSES])
    .optional()
    .meta({ description: "Only orders with this paymentStatus" }),
  from: z
    .string()
    .optional()
    .meta({ format: "date", description: "Orders created on this day (UTC) or later, YYYY-MM-DD" }),
  to: z.string().optional().meta({
    format: "date",
    description: "Orders created on this day (UTC) or earlier, YYYY-MM-DD; not before from",
  }),
});

export const adminOrderExportQuerySchema = adminOrderQuerySchema.omit({ page: true, limit: true });

/** `{ userId?, productId, quantity }` of cart add and update-cart: the schema the route validates with. */
export { cartItemBodySchema } from "~/web/cart-api.server";

export const shippingMethodSchema = z
  .object({
    _id: uuid,
    name: z.string(),
    price: money,
    estimatedDays: z.string().meta({ description: "Such as 3–5 days" }),
    freeOver: money
      .nullable()
      .meta({ description: "Free delivery when the subtotal after the discount reaches it; null: never" }),
  })
  .meta({ id: "ShippingMethod" });

export const adminShippingMethodSchema = shippingMethodSchema
  .extend({
    estimatedDaysMin: z.int().nullable(),
    estimatedDaysMax: z.int().nullable(),
    estimatedText: z.string().nullable(),
    active: z.boolean(),
    position: z.int(),
  })
  .meta({ id: "AdminShippingMethod" });

export const discountCodeOutSchema = z
  .object({
    _id: uuid,
    code: z.string(),
    type: z.enum(DISCOUNT_TYPES),
    value: z.number().meta({ description: "A percent (10 for 10 %) or an amount in dollars" }),
    minSubtotal: money,
    startsAt: timestamp.nullable(),
    endsAt: timestamp.nullable(),
    usageLimit: z.int().nullable(),
    perCustomerLimit: z.int().nullable(),
    categories: z.array(z.enum(CATEGORIES)),
    brands: z.array(z.enum(BRANDS)),
    active: z.boolean(),
    uses: z.int().meta({ description: "Orders paid (or being paid) with it" }),
  })
  .meta({ id: "DiscountCode" });

export const cartWithDiscountSchema = cartSchema
  .extend({
    discount: z
      .object({ code: z.string(), amount: money })
      .nullable()
      .meta({ description: "What the cart's code takes off now; null: no code, or it no longer applies" }),
  })
  .meta({ id: "CartWithDiscount" });

export const addressBodySchema = addressInputSchema.extend({
  userId: uuid.optional(),
  country: z.string().optional().meta({ description: "ISO 3166-1 alpha-2; default the shop's country" }),
  region: z.string().nullish().meta({
    description:
      "State, province or county code; for US derived from the ZIP when left out, and 400 when it contradicts the ZIP's state",
  }),
});
