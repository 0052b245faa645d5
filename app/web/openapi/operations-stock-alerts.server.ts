import { z } from "zod";
import { MAX_WAITING_ALERTS, MAX_WISHLIST_ITEMS } from "~/lib/shared/stock-alerts";
import type { ApiOperation } from "./operation.server";
import { dataEnvelope } from "./schemas.server";

/** Back-in-stock alerts and the wishlist (API.md "Back-in-stock alerts and the wishlist"). */

const uuid = z.string().meta({ format: "uuid", description: "An opaque id (UUID)" });
const dateTime = z.string().meta({ format: "date-time" });
const money = z.number().meta({ description: "An amount with at most two decimals" });
const NOT_JSON = "The body is not JSON";
const NOT_YOURS = "Another shopper's userId, or an admin";

const itemBody = z.object({
  userId: uuid.optional().meta({ description: "The caller's own id (optional)" }),
  productId: uuid,
  variantId: uuid
    .optional()
    .meta({ description: "The size and colour; a product with one variant needs none" }),
});

const alertSchema = z
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

const wishlistItemSchema = z
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

const demandSchema = z.object({
  productId: uuid,
  variantId: uuid,
  sku: z.string(),
  title: z.string(),
  size: z.string().nullable(),
  colour: z.string().nullable(),
  totalStock: z.number().int(),
  waiting: z.number().int().meta({ description: "Shoppers waiting for it" }),
  since: dateTime.meta({ description: "When the oldest waiting alert was made" }),
});

const alertEnvelope = dataEnvelope(alertSchema);
const itemEnvelope = dataEnvelope(wishlistItemSchema);

export const STOCK_ALERT_OPERATIONS: ApiOperation[] = [
  {
    method: "post",
    path: "/api/shop/stock-alerts",
    tag: "Back-in-stock alerts and wishlist",
    summary: "Be mailed once when a sold-out size comes back",
    description: `At most ${MAX_WAITING_ALERTS} waiting alerts a shopper.`,
    access: "shopper",
    body: itemBody,
    success: {
      201: { description: "The new alert", schema: alertEnvelope },
      200: {
        description: "The caller already waits for this variant: the existing alert",
        schema: alertEnvelope,
      },
    },
    errors: {
      400: "A product with several variants and no variantId",
      403: NOT_YOURS,
      404: "Unknown product or variant",
      409: `The variant is in stock, or ${MAX_WAITING_ALERTS} alerts already wait`,
      415: NOT_JSON,
    },
  },
  {
    method: "get",
    path: "/api/shop/stock-alerts/{userId}",
    tag: "Back-in-stock alerts and wishlist",
    summary: "The caller's alerts, waiting ones first, newest first",
    access: "shopper",
    success: { 200: { description: "The alerts", schema: dataEnvelope(z.array(alertSchema)) } },
    errors: { 403: NOT_YOURS },
  },
  {
    method: "delete",
    path: "/api/shop/stock-alerts/{userId}/{alertId}",
    tag: "Back-in-stock alerts and wishlist",
    summary: "Remove one of the caller's alerts",
    access: "shopper",
    success: { 200: { description: "The alert removed", schema: alertEnvelope } },
    errors: { 403: NOT_YOURS, 404: "Unknown alert, or somebody else's" },
  },
  {
    method: "post",
    path: "/api/shop/wishlist",
    tag: "Back-in-stock alerts and wishlist",
    summary: "Keep a product (or one size of it) in the wishlist",
    description: `At most ${MAX_WISHLIST_ITEMS} items a shopper.`,
    access: "shopper",
    body: itemBody,
    success: {
      201: { description: "The new item", schema: itemEnvelope },
      200: { description: "Already kept: the existing item, once", schema: itemEnvelope },
    },
    errors: {
      403: NOT_YOURS,
      404: "Unknown product or variant",
      409: `${MAX_WISHLIST_ITEMS} items already`,
      415: NOT_JSON,
    },
  },
  {
    method: "get",
    path: "/api/shop/wishlist/{userId}",
    tag: "Back-in-stock alerts and wishlist",
    summary: "The caller's wishlist, newest first, with the price now and when added",
    access: "shopper",
    success: { 200: { description: "The items", schema: dataEnvelope(z.array(wishlistItemSchema)) } },
    errors: { 403: NOT_YOURS },
  },
  {
    method: "delete",
    path: "/api/shop/wishlist/{userId}/{itemId}",
    tag: "Back-in-stock alerts and wishlist",
    summary: "Remove one item from the caller's wishlist",
    access: "shopper",
    success: { 200: { description: "The item removed", schema: itemEnvelope } },
    errors: { 403: NOT_YOURS, 404: "Unknown item, or somebody else's" },
  },
  {
    method: "get",
    path: "/api/admin/stock-alerts",
    tag: "Admin",
    summary: "The variants shoppers wait for, most waited-for first",
    access: "admin",
    query: z.object({ status: z.enum(["waiting"]).optional().meta({ default: "waiting" }) }),
    success: { 200: { description: "The variants", schema: dataEnvelope(z.array(demandSchema)) } },
    errors: { 400: "A status other than waiting" },
  },
];
