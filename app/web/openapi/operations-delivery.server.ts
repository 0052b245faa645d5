import { z } from "zod";
import { BRANDS, CATEGORIES } from "~/lib/shared/catalog-options";
import { DISCOUNT_TYPES } from "~/lib/shared/delivery-schemas";
import type { ApiOperation } from "./operation.server";
import {
  adminShippingMethodSchema,
  cartDiscountBodySchema,
  cartWithDiscountSchema,
  dataEnvelope,
  discountCodeOutSchema,
  messageEnvelope,
  shippingMethodSchema,
} from "./schemas.server";

/**
 * Delivery options and discount codes (API.md "Delivery, discount codes,
 * returns"). The admin bodies are validated by lib/shared/delivery-schemas.ts,
 * which also reads a form's text fields; these describe the JSON form of them.
 */

const BAD_INPUT = "Invalid fields (`errors` names them), or malformed JSON";
const NOT_JSON = "The body is not JSON";
const amount = z.union([z.number(), z.string()]).meta({ description: "An amount such as 4.95" });

const shippingMethodBody = z.object({
  name: z.string().max(60).meta({ description: "Unique regardless of case" }),
  price: amount,
  estimatedDaysMin: z.int().min(0).optional(),
  estimatedDaysMax: z.int().min(0).optional(),
  estimatedText: z
    .string()
    .max(100)
    .optional()
    .meta({ description: "Instead of the days, such as 'Next day'" }),
  freeOver: amount.optional().meta({ description: "Free from this subtotal after the discount" }),
  active: z.boolean().optional().meta({ default: true }),
  position: z.int().min(0).optional(),
});

const discountBody = z.object({
  code: z.string().max(40).meta({ description: "Letters, digits, - and _; unique regardless of case" }),
  type: z.enum(DISCOUNT_TYPES),
  value: amount.meta({ description: "A percent (at most 100) or an amount off" }),
  minSubtotal: amount.optional(),
  startsAt: z.string().optional().meta({ format: "date-time" }),
  endsAt: z.string().optional().meta({ format: "date-time" }),
  usageLimit: z.int().min(1).optional(),
  perCustomerLimit: z.int().min(1).optional(),
  categories: z.array(z.enum(CATEGORIES)).optional().meta({ description: "Empty: every category" }),
  brands: z.array(z.enum(BRANDS)).optional().meta({ description: "Empty: every brand" }),
  active: z.boolean().optional().meta({ default: true }),
});

const cartEnvelope = dataEnvelope(cartWithDiscountSchema);
const methodEnvelope = dataEnvelope(adminShippingMethodSchema);
const discountEnvelope = dataEnvelope(discountCodeOutSchema);

export const DELIVERY_OPERATIONS: ApiOperation[] = [
  {
    method: "get",
    path: "/api/shop/shipping-methods",
    tag: "Delivery and discounts",
    summary: "The delivery options, cheapest first (none: delivery is free)",
    access: "public",
    success: {
      200: { description: "The active options", schema: dataEnvelope(z.array(shippingMethodSchema)) },
    },
    errors: {},
  },
  {
    method: "post",
    path: "/api/shop/cart/discount",
    tag: "Delivery and discounts",
    summary: "Put a discount code on the caller's cart",
    access: "shopper",
    body: cartDiscountBodySchema,
    success: { 200: { description: "The cart with what the code takes off", schema: cartEnvelope } },
    errors: {
      400: "The code is unknown, not yet valid, ended, used up, used by the caller the allowed number of times, below its minimum, or for none of the cart's items (the message says which)",
      403: "Another shopper's userId, or an admin",
      415: NOT_JSON,
    },
  },
  {
    method: "delete",
    path: "/api/shop/cart/discount/{userId}",
    tag: "Delivery and discounts",
    summary: "Take the discount code off the caller's cart",
    access: "shopper",
    success: { 200: { description: "The cart without a code", schema: cartEnvelope } },
    errors: { 403: "Another shopper's userId, or an admin" },
  },
  {
    method: "get",
    path: "/api/admin/shipping-methods",
    tag: "Admin",
    summary: "Every delivery option, active or not",
    access: "admin",
    success: {
      200: { description: "The options", schema: dataEnvelope(z.array(adminShippingMethodSchema)) },
    },
    errors: {},
  },
  {
    method: "post",
    path: "/api/admin/shipping-methods",
    tag: "Admin",
    summary: "Add a delivery option",
    access: "admin",
    body: shippingMethodBody,
    success: { 201: { description: "The option", schema: methodEnvelope } },
    errors: { 400: BAD_INPUT, 415: NOT_JSON },
  },
  {
    method: "get",
    path: "/api/admin/shipping-methods/{id}",
    tag: "Admin",
    summary: "One delivery option",
    access: "admin",
    success: { 200: { description: "The option", schema: methodEnvelope } },
    errors: { 404: "Unknown option" },
  },
  {
    method: "put",
    path: "/api/admin/shipping-methods/{id}",
    tag: "Admin",
    summary: "Change some fields of a delivery option (orders keep what they were sent with)",
    access: "admin",
    body: shippingMethodBody.partial(),
    success: { 200: { description: "The option", schema: methodEnvelope } },
    errors: { 400: BAD_INPUT, 404: "Unknown option", 415: NOT_JSON },
  },
  {
    method: "delete",
    path: "/api/admin/shipping-methods/{id}",
    tag: "Admin",
    summary: "Delete a delivery option (orders keep its name and price)",
    access: "admin",
    success: { 200: { description: "Deleted", schema: messageEnvelope } },
    errors: { 404: "Unknown option" },
  },
  {
    method: "get",
    path: "/api/admin/discounts",
    tag: "Admin",
    summary: "Every discount code with its uses",
    access: "admin",
    success: { 200: { description: "The codes", schema: dataEnvelope(z.array(discountCodeOutSchema)) } },
    errors: {},
  },
  {
    method: "post",
    path: "/api/admin/discounts",
    tag: "Admin",
    summary: "Add a discount code",
    access: "admin",
    body: discountBody,
    success: { 201: { description: "The code", schema: discountEnvelope } },
    errors: { 400: BAD_INPUT, 415: NOT_JSON },
  },
  {
    method: "get",
    path: "/api/admin/discounts/{id}",
    tag: "Admin",
    summary: "One discount code with its uses",
    access: "admin",
    success: { 200: { description: "The code", schema: discountEnvelope } },
    errors: { 404: "Unknown code" },
  },
  {
    method: "put",
    path: "/api/admin/discounts/{id}",
    tag: "Admin",
    summary: "Change some fields of a discount code",
    access: "admin",
    body: discountBody.partial(),
    success: { 200: { description: "The code", schema: discountEnvelope } },
    errors: { 400: BAD_INPUT, 404: "Unknown code", 415: NOT_JSON },
  },
  {
    method: "delete",
    path: "/api/admin/discounts/{id}",
    tag: "Admin",
    summary: "Delete a discount code (orders keep its text and amounts)",
    access: "admin",
    success: { 200: { description: "Deleted", schema: messageEnvelope } },
    errors: { 404: "Unknown code" },
  },
];
