import { z } from "zod";
import { RETURN_REASONS, RETURN_STATUSES } from "~/lib/shared/returns";
import type { ApiOperation } from "./operation.server";
import { dataEnvelope, paginationSchema, returnSchema } from "./schemas.server";

/** Returns and partial refunds (API.md "Delivery, discount codes, returns"); rules in returns.server.ts. */

const BAD_INPUT = "Invalid fields (`errors` names them), or malformed JSON";
const NOT_JSON = "The body is not JSON";
const returnEnvelope = dataEnvelope(returnSchema);

const returnRequestBody = z.object({
  userId: z.string().optional().meta({ description: "The caller's id (optional)" }),
  orderId: z.string().meta({ format: "uuid" }),
  items: z
    .array(
      z.object({
        variantId: z
          .string()
          .optional()
          .meta({ format: "uuid", description: "The line's variantId, as the order lists it" }),
        productId: z.string().optional().meta({
          format: "uuid",
          description: "Instead of variantId, for a line of a product without sizes",
        }),
        quantity: z.int().min(1),
        reason: z.enum(RETURN_REASONS),
      }),
    )
    .min(1),
});

const returnUpdateBody = z.object({
  status: z.enum(["approved", "rejected", "received"]),
  refundShipping: z
    .boolean()
    .optional()
    .meta({ description: "Refund the order's delivery too (once per order), when received" }),
});

export const RETURN_OPERATIONS: ApiOperation[] = [
  {
    method: "post",
    path: "/api/shop/order/return",
    tag: "Returns",
    summary: "Ask to return lines of a delivered order",
    description:
      "Only the caller's delivered orders, within RETURN_WINDOW_DAYS of delivery, and never more of a line than was bought less what other returns hold.",
    access: "shopper",
    body: returnRequestBody,
    success: { 201: { description: "The return, requested", schema: returnEnvelope } },
    errors: {
      400: `${BAD_INPUT}; an item the order does not have, or more than is left to return`,
      403: "Another shopper's userId, or an admin",
      404: "Not the caller's order",
      409: "The order is not delivered, not paid, or its return window closed",
      415: NOT_JSON,
    },
  },
  {
    method: "get",
    path: "/api/shop/order/returns/{userId}",
    tag: "Returns",
    summary: "The caller's returns, newest first",
    access: "shopper",
    success: { 200: { description: "The returns", schema: dataEnvelope(z.array(returnSchema)) } },
    errors: { 403: "Another shopper's userId, or an admin" },
  },
  {
    method: "get",
    path: "/api/admin/returns",
    tag: "Returns",
    summary: "Every return, newest first",
    access: "admin",
    query: z.object({
      status: z.enum(RETURN_STATUSES).optional(),
      page: z.int().min(1).optional(),
      limit: z.int().min(1).max(100).optional(),
    }),
    success: {
      200: {
        description: "A page of returns",
        schema: z.object({
          success: z.literal(true),
          data: z.array(returnSchema),
          pagination: paginationSchema,
        }),
      },
    },
    errors: { 400: "An unknown status, or a page or limit out of range" },
  },
  {
    method: "get",
    path: "/api/admin/returns/{id}",
    tag: "Returns",
    summary: "One return",
    access: "admin",
    success: { 200: { description: "The return", schema: returnEnvelope } },
    errors: { 404: "Unknown return" },
  },
  {
    method: "put",
    path: "/api/admin/returns/{id}",
    tag: "Returns",
    summary: "Approve, reject or receive a return",
    description:
      "Receiving puts the stock back and refunds the lines through the payment provider (the delivery too with refundShipping). Setting the status a return already has changes nothing, so two admins receiving one parcel refund it once.",
    access: "admin",
    body: returnUpdateBody,
    success: { 200: { description: "The return", schema: returnEnvelope } },
    errors: {
      400: BAD_INPUT,
      404: "Unknown return",
      409: "The move is not possible from the return's status (a rejected return cannot be received)",
      415: NOT_JSON,
      502: "Received, but the provider's refund failed: it is retried automatically",
    },
  },
];
