import { DELIVERY_OPERATIONS } from "./operations-delivery.server";
import { RETURN_OPERATIONS } from "./operations-returns.server";
import { TAX_OPERATIONS } from "./operations-tax.server";
import { WEBHOOK_OPERATIONS } from "./operations-webhooks.server";
import { STOCK_ALERT_OPERATIONS } from "./operations-stock-alerts.server";
import { STAFF_OPERATIONS } from "./operations-staff.server";
import { TWO_FACTOR_OPERATIONS, twoFactorChallengeSchema } from "./operations-two-factor.server";
import { z } from "zod";
import {
  changePasswordRequestSchema,
  changeUserNameRequestSchema,
  forgotPasswordRequestSchema,
  resetPasswordRequestSchema,
} from "~/lib/server/account-api.server";
import { loginSchema, registerSchema } from "~/lib/shared/schemas";
import { searchKeywordSchema } from "~/services/catalog-search.server";
import type { ApiOperation } from "./operation.server";
import { ADMIN_OPERATIONS } from "./operations-admin.server";
import {
  addressBodySchema,
  addressSchema,
  cartItemBodySchema,
  cartSchema,
  dataEnvelope,
  featureSchema,
  messageEnvelope,
  orderCaptureBodySchema,
  orderCreateBodySchema,
  orderSchema,
  apiPagingSchema,
  productListQuerySchema,
  productSchema,
  reviewBodySchema,
  reviewSchemaOut,
  sessionUserSchema,
} from "./schemas.server";

/**
 * Every operation of the JSON API: path, method, who may call it, what it
 * takes and what it answers per status. openapi.server.ts turns this list
 * into the OpenAPI document; a test checks that every `app/routes/api.*`
 * file has its operations here and nothing here lacks a route.
 */

const BAD_JSON = "Malformed JSON, or invalid fields (`errors` names them)";
const NOT_JSON = "The body is not JSON";
const OWN_ID = "Signed in as an admin, or the `userId` is not the caller's";

const productEnvelope = dataEnvelope(productSchema);
const cartEnvelope = dataEnvelope(cartSchema);
const orderEnvelope = dataEnvelope(orderSchema);
const addressEnvelope = dataEnvelope(addressSchema);

const orderCreatedSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  approvalURL: z
    .string()
    .meta({ format: "uri", description: "Send the shopper here to approve the payment" }),
  orderId: z.string().meta({ format: "uuid" }),
  data: orderSchema,
});

const captureSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  alreadyCaptured: z.boolean().meta({ description: "true when an earlier call had captured it already" }),
  data: orderSchema,
});

const capturePendingSchema = z.object({
  success: z.literal(false),
  pending: z.literal(true),
  message: z.string(),
  data: orderSchema,
});

const captureRefusalSchema = z.object({
  success: z.literal(false),
  message: z.string(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
  reason: z.string().optional().meta({ description: "declined, notApproved, outOfStock, …" }),
  orderId: z.string().nullable().optional(),
  approvalURL: z.string().optional().meta({ description: "Where the shopper may choose another way to pay" }),
});

const userEnvelope = z.object({ success: z.literal(true), message: z.string(), user: sessionUserSchema });
const endedSessionsEnvelope = z.object({
  success: z.literal(true),
  message: z.string(),
  endedSessions: z.number().int().min(0).meta({ description: "How many other sessions ended" }),
});

export const API_OPERATIONS: ApiOperation[] = [
  // --- Auth -------------------------------------------------------------------------
  {
    method: "post",
    path: "/api/auth/register",
    tag: "Auth",
    summary: "Register a shopper account (no session is started)",
    access: "public",
    body: registerSchema,
    success: {
      201: {
        description: "Registered",
        schema: z.object({
          success: z.literal(true),
          message: z.string(),
          data: sessionUserSchema.omit({ role: true }),
        }),
      },
    },
    errors: { 400: BAD_JSON, 409: "The email is taken", 415: NOT_JSON },
  },
  {
    method: "post",
    path: "/api/auth/login",
    tag: "Auth",
    summary: "Sign in: sets the session cookie",
    access: "public",
    body: loginSchema,
    success: { 200: { description: "Signed in; Set-Cookie carries the session", schema: userEnvelope } },
    errors: {
      400: BAD_JSON,
      401: "Wrong email or password; or, with `twoFactorRequired`, the right password of an account with two-factor sign-in",
      415: NOT_JSON,
      429: "Too many failed attempts",
    },
    refusals: { statuses: [401], schema: twoFactorChallengeSchema },
  },
  {
    method: "post",
    path: "/api/auth/logout",
    tag: "Auth",
    summary: "Sign out: clears the session cookie",
    access: "public",
    success: { 200: { description: "Signed out", schema: messageEnvelope } },
    errors: {},
  },
  {
    method: "get",
    path: "/api/auth/check-auth",
    tag: "Auth",
    summary: "The signed-in user (Cache-Control: no-store)",
    access: "signed-in",
    success: { 200: { description: "The session's user", schema: userEnvelope } },
    errors: { 401: "Not signed in" },
  },
  {
    method: "post",
    path: "/api/auth/forgot-password",
    tag: "Auth",
    summary: "Mail a password reset link (the same answer whether or not the address has an account)",
    access: "public",
    body: forgotPasswordRequestSchema,
    success: { 200: { description: "Requested", schema: messageEnvelope } },
    errors: { 400: BAD_JSON, 415: NOT_JSON, 429: "Too many requests from this client or for this address" },
  },
  {
    method: "post",
    path: "/api/auth/reset-password",
    tag: "Auth",
    summary: "Set a new password with the token of a reset link; ends every session of the account",
    access: "public",
    body: resetPasswordRequestSchema,
    success: { 200: { description: "The password is changed", schema: messageEnvelope } },
    errors: {
      400: "Invalid, used or expired link, or an invalid password (`errors` names it)",
      415: NOT_JSON,
    },
  },
  // --- Account ------------------------------------------------------------------------
  {
    method: "post",
    path: "/api/account/user-name",
    tag: "Account",
    summary: "Change the caller's user name",
    access: "signed-in",
    body: changeUserNameRequestSchema,
    success: { 200: { description: "Changed", schema: userEnvelope } },
    errors: { 400: BAD_JSON, 401: "Not signed in", 415: NOT_JSON },
  },
  {
    method: "post",
    path: "/api/account/password",
    tag: "Account",
    summary: "Change the caller's password (the current one is required); ends every other session",
    access: "signed-in",
    body: changePasswordRequestSchema,
    success: { 200: { description: "Changed", schema: endedSessionsEnvelope } },
    errors: {
      400: "A wrong current password (on `errors.currentPassword`) or an invalid new one",
      401: "Not signed in",
      415: NOT_JSON,
      429: "Too many wrong current passwords",
    },
  },
  {
    method: "post",
    path: "/api/account/sign-out-others",
    tag: "Account",
    summary: "End every session of the caller except this one",
    access: "signed-in",
    success: { 200: { description: "Signed out elsewhere", schema: endedSessionsEnvelope } },
    errors: { 401: "Not signed in" },
  },
  // --- Catalogue ----------------------------------------------------------------------
  {
    method: "get",
    path: "/api/shop/products/get",
    tag: "Catalogue",
    summary: "Products, filtered, sorted and paged",
    access: "public",
    query: productListQuerySchema,
    success: {
      200: {
        description: "A page of products",
        schema: dataEnvelope(z.array(productSchema), { paged: true }),
      },
    },
    errors: { 400: "A malformed page, limit or sortBy" },
  },
  {
    method: "get",
    path: "/api/shop/products/get/{id}",
    tag: "Catalogue",
    summary: "One product",
    access: "public",
    success: { 200: { description: "The product", schema: productEnvelope } },
    errors: { 404: "Unknown or malformed id" },
  },
  {
    method: "get",
    path: "/api/shop/search/{keyword}",
    tag: "Catalogue",
    summary: "Products matching a keyword (title, description, category, brand), best first",
    access: "public",
    params: z.object({ keyword: searchKeywordSchema }),
    query: apiPagingSchema,
    success: {
      200: {
        description: "A page of matches",
        schema: dataEnvelope(z.array(productSchema), { paged: true }),
      },
    },
    errors: { 400: "The keyword is longer than 100 characters, or a malformed page or limit" },
  },
  {
    method: "get",
    path: "/api/shop/review/{productId}",
    tag: "Reviews",
    summary: "A product's reviews, newest first",
    access: "public",
    query: apiPagingSchema,
    success: {
      200: {
        description: "A page of reviews",
        schema: dataEnvelope(z.array(reviewSchemaOut), { paged: true }),
      },
    },
    errors: { 400: "A malformed page or limit", 404: "Unknown product" },
  },
  {
    method: "post",
    path: "/api/shop/review/add",
    tag: "Reviews",
    summary: "Review a product the caller bought (one review per product)",
    access: "shopper",
    body: reviewBodySchema,
    success: { 201: { description: "The review", schema: dataEnvelope(reviewSchemaOut) } },
    errors: {
      400: BAD_JSON,
      403: "Not bought, or an admin",
      404: "Unknown product",
      409: "Already reviewed",
      415: NOT_JSON,
    },
  },
  {
    method: "get",
    path: "/api/common/feature/get",
    tag: "Feature images",
    summary: "The home banner's images, oldest first",
    access: "public",
    success: { 200: { description: "The feature images", schema: dataEnvelope(z.array(featureSchema)) } },
    errors: {},
  },
  // --- Cart ------------------------------------------------------------------------------
  {
    method: "get",
    path: "/api/shop/cart/get/{userId}",
    tag: "Cart",
    summary: "The caller's cart with current prices",
    access: "shopper",
    success: { 200: { description: "The cart", schema: cartEnvelope } },
    errors: { 403: OWN_ID },
  },
  {
    method: "post",
    path: "/api/shop/cart/add",
    tag: "Cart",
    summary: "Add a quantity of a product's variant (its size or colour)",
    access: "shopper",
    body: cartItemBodySchema,
    success: { 200: { description: "The whole cart", schema: cartEnvelope } },
    errors: {
      400: `${BAD_JSON}, or no variantId for a product with several variants ("Please choose a size")`,
      403: OWN_ID,
      404: "Unknown product, or a variantId that is not one of its variants",
      409: "Above the variant's stock",
      415: NOT_JSON,
    },
  },
  {
    method: "put",
    path: "/api/shop/cart/update-cart",
    tag: "Cart",
    summary: "Set the quantity of a line of the cart (1 to its variant's stock)",
    access: "shopper",
    body: cartItemBodySchema,
    success: { 200: { description: "The whole cart", schema: cartEnvelope } },
    errors: {
      400: `${BAD_JSON}, or no variantId for a product with several variants`,
      403: OWN_ID,
      404: "Not in the cart",
      409: "Above the variant's stock",
      415: NOT_JSON,
    },
  },
  {
    method: "delete",
    path: "/api/shop/cart/{userId}/{productId}",
    tag: "Cart",
    summary: "Remove a product from the cart: every line of it, or with variantId only that line",
    access: "shopper",
    query: z.object({
      variantId: z.string().optional().meta({ format: "uuid", description: "Only this variant's line" }),
    }),
    success: { 200: { description: "The cart without it", schema: cartEnvelope } },
    errors: { 403: OWN_ID, 404: "Not in the cart" },
  },
  // --- Addresses -------------------------------------------------------------------------
  {
    method: "get",
    path: "/api/shop/address/get/{userId}",
    tag: "Addresses",
    summary: "The caller's addresses, oldest first",
    access: "shopper",
    success: { 200: { description: "The addresses", schema: dataEnvelope(z.array(addressSchema)) } },
    errors: { 403: OWN_ID },
  },
  {
    method: "post",
    path: "/api/shop/address/add",
    tag: "Addresses",
    summary: "Add an address (at most 3)",
    access: "shopper",
    body: addressBodySchema,
    success: { 201: { description: "The new address", schema: addressEnvelope } },
    errors: { 400: BAD_JSON, 403: OWN_ID, 409: "Already 3 addresses", 415: NOT_JSON },
  },
  {
    method: "put",
    path: "/api/shop/address/update/{userId}/{addressId}",
    tag: "Addresses",
    summary: "Change an address",
    access: "shopper",
    body: addressBodySchema.omit({ userId: true }),
    success: { 200: { description: "The address", schema: addressEnvelope } },
    errors: { 400: BAD_JSON, 403: OWN_ID, 404: "Not one of the caller's addresses", 415: NOT_JSON },
  },
  {
    method: "delete",
    path: "/api/shop/address/delete/{userId}/{addressId}",
    tag: "Addresses",
    summary: "Delete an address",
    access: "shopper",
    success: { 200: { description: "The deleted address", schema: addressEnvelope } },
    errors: { 403: OWN_ID, 404: "Not one of the caller's addresses" },
  },
  // --- Orders ----------------------------------------------------------------------------
  {
    method: "post",
    path: "/api/shop/order/create",
    tag: "Orders",
    summary: "Create an order from the cart and start its payment",
    description:
      "The order is built from the caller's cart and the catalogue. Send the shopper to `approvalURL`; " +
      "with `returnUrl` the shopper comes back to `returnUrl?paymentId=…&PayerID=…` (then call capture), " +
      "with `cancelUrl` to `cancelUrl?paymentId=…` after a cancel.",
    access: "shopper",
    body: orderCreateBodySchema,
    success: { 201: { description: "Created; approve at approvalURL", schema: orderCreatedSchema } },
    errors: {
      400: "Empty cart, no address, an invalid totalAmount, an unknown shippingMethodId, a discountCode that cannot be used (the message says why), or a returnUrl/cancelUrl on an origin that is not allowed",
      403: OWN_ID,
      404: "Not one of the caller's addresses",
      409: "Stock or prices changed",
      415: NOT_JSON,
      502: "The payment provider failed",
    },
  },
  {
    method: "post",
    path: "/api/shop/order/capture",
    tag: "Orders",
    summary: "Capture the approved payment (idempotent)",
    access: "shopper",
    body: orderCaptureBodySchema,
    success: {
      200: { description: "Paid and confirmed (or captured before)", schema: captureSchema },
      202: { description: "The provider has not settled the capture yet", schema: capturePendingSchema },
    },
    errors: {
      400: BAD_JSON,
      402: "Declined: choose another way to pay at approvalURL",
      403: OWN_ID,
      404: "Unknown order or payment",
      409: "Not approved, out of stock, refunded or cancelled",
      415: NOT_JSON,
      502: "The payment provider failed",
    },
    refusals: { statuses: [402, 404, 409], schema: captureRefusalSchema },
  },
  {
    method: "get",
    path: "/api/shop/order/list/{userId}",
    tag: "Orders",
    summary: "The caller's orders, newest first",
    access: "shopper",
    success: { 200: { description: "The orders", schema: dataEnvelope(z.array(orderSchema)) } },
    errors: { 403: OWN_ID },
  },
  {
    method: "get",
    path: "/api/shop/order/details/{orderId}",
    tag: "Orders",
    summary: "One of the caller's orders",
    access: "shopper",
    success: { 200: { description: "The order", schema: orderEnvelope } },
    errors: { 403: "An admin (use the admin route)", 404: "Not one of the caller's orders" },
  },
  ...DELIVERY_OPERATIONS,
  ...RETURN_OPERATIONS,
  ...TAX_OPERATIONS,
  ...WEBHOOK_OPERATIONS,
  ...STOCK_ALERT_OPERATIONS,
  ...STAFF_OPERATIONS,
  ...TWO_FACTOR_OPERATIONS,
  ...ADMIN_OPERATIONS,
];
