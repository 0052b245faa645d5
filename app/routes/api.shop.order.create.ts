import { expectedTotalSchema } from "~/services/checkout/create.server";
import { ADDRESS_FIELDS, addressInputSchema } from "~/lib/shared/address-schema";
import { z } from "zod";
import { orderSchema, uuid } from "~/web/openapi/schemas.server";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";
import { apiBuyerOf } from "~/web/checkout-buyer.server";
import { GUEST_USER_ID } from "~/services/cart-owner.server";
import { createOrderFromCart } from "~/services/checkout.server";
import { readPaymentReturn, paymentReturnSchema } from "~/services/payment-return.server";

const orderCreatedSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  approvalURL: z.string().optional().meta({
    format: "uri",
    description: "Send the shopper here to approve the payment (absent when `paid`)",
  }),
  paid: z
    .boolean()
    .optional()
    .meta({ description: "true: gift cards and store credit paid the whole total; no approval, no capture" }),
  orderId: z.string().meta({ format: "uuid" }),
  data: orderSchema,
});

const orderCreateBodySchema = paymentReturnSchema.extend({
  userId: z
    .union([uuid, z.literal(GUEST_USER_ID)])
    .optional()
    .meta({
      description: "The caller's own id, or \"guest\" for a visitor's guest checkout (the open storefront)",
    }),
  email: z.string().optional().meta({
    format: "email",
    description:
      "A guest's email (required for guests): the confirmation and the order's private link go there",
  }),
  marketingConsent: z
    .boolean()
    .optional()
    .meta({ description: '"Email me about my cart and offers" (default false)' }),
  addressId: uuid.optional().meta({ description: "One of the caller's saved addresses" }),
  addressInfo: z
    .union([
      z.object({ addressId: uuid }),
      addressInputSchema
        .extend({ addressId: uuid.optional(), country: z.string().optional(), region: z.string().nullish() })
        .partial({ addressId: true }),
    ])
    .optional()
    .meta({ description: `\`{ addressId }\` or the address fields (${ADDRESS_FIELDS.join(", ")})` }),
  totalAmount: expectedTotalSchema,
  shippingMethodId: uuid.optional().meta({
    description: "An active delivery option (GET /api/shop/shipping-methods); default: the cheapest",
  }),
  discountCode: z
    .string()
    .optional()
    .meta({ description: "A discount code; default: the one on the cart; empty: none" }),
  useStoreCredit: z
    .boolean()
    .optional()
    .meta({ description: "Spend the caller's store credit first (default false)" }),
});

/**
 * POST { userId?, addressInfo: { addressId } | the address fields, totalAmount?, shippingMethodId?,
 * discountCode? }
 * → 201 { success, approvalURL, orderId, data }. The order is built from the
 * caller's cart and the catalogue; the body's items, prices and statuses are
 * ignored (API.md), except that a totalAmount that differs answers 409. The
 * delivery option defaults to the cheapest, the code to the cart's; an
 * unknown option or a code that cannot be used answers 400 saying which.
 * Optional `returnUrl` and `cancelUrl` (on CORS_ORIGINS or the shop's own
 * origin, else 400) bring the shopper back to the client's own pages; a call
 * from a CORS_ORIGINS origin without `returnUrl` returns to that origin's
 * `/shop/paypal-return`, the spec's page.
 */
const route = apiRoute({
  POST: apiOperation({
    tag: "Orders",
    summary: "Create an order from the cart and start its payment",
    description:
      "The order is built from the caller's cart and the catalogue. Send the shopper to `approvalURL`; " +
      "with `returnUrl` the shopper comes back to `returnUrl?paymentId=…&PayerID=…` (then call capture), " +
      "with `cancelUrl` to `cancelUrl?paymentId=…` after a cancel.",
    access: "cart",
    body: orderCreateBodySchema,
    success: { 201: { description: "Created; approve at approvalURL", schema: orderCreatedSchema } },
    errors: {
      400: "Empty cart, no address, a guest without a valid email, an invalid totalAmount, an unknown shippingMethodId, a discountCode that cannot be used (the message says why), or a returnUrl/cancelUrl on an origin that is not allowed",
      401: "Not signed in, and guest checkout is off (or a visitor named an account)",
      403: "Signed in as an admin, or the `userId` is not the caller's",
      404: "Not one of the caller's addresses",
      409: "Stock or prices changed, or a gift card's balance changed",
      502: "The payment provider failed",
    },
    handler: async ({ request, caller, input }) => {
      const body = input;
      const buyer = await apiBuyerOf(request, caller, body.userId);
      const paymentReturn = readPaymentReturn(body, request.headers.get("Origin"));
      const created = await createOrderFromCart(buyer, {
        email: body.email,
        marketingConsent: body.marketingConsent,
        addressId: body.addressId,
        addressInfo: body.addressInfo,
        totalAmount: body.totalAmount,
        shippingMethodId: body.shippingMethodId,
        discountCode: body.discountCode,
        useStoreCredit: body.useStoreCredit,
        paymentReturn,
      });
      if (created.paid) {
        return apiJson(
          {
            success: true,
            message: "Order paid with gift cards and store credit",
            paid: true,
            orderId: created.orderId,
            data: created.order,
          },
          { status: 201 },
        );
      }
      return apiJson(
        {
          success: true,
          message: "Order created: approve the payment at approvalURL",
          approvalURL: created.approvalURL,
          orderId: created.orderId,
          data: created.order,
        },
        { status: 201 },
      );
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
