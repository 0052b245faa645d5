import { z } from "zod";
import { featureInputSchema, orderStatusSchema, productInputSchema } from "~/lib/shared/admin-schemas";
import { productImagesInputSchema } from "~/lib/shared/product-schema";
import { variantsInputSchema } from "~/lib/shared/variant-schema";
import type { ApiOperation } from "./operation.server";
import {
  adminOrderQuerySchema,
  adminProductQuerySchema,
  dataEnvelope,
  featureSchema,
  messageEnvelope,
  orderSchema,
  productSchema,
} from "./schemas.server";

/** The admin's operations, and the two that describe the API itself (see operations.server.ts). */

const BAD_JSON = "Malformed JSON, or invalid fields (`errors` names them)";
const NOT_JSON = "The body is not JSON";

const productEnvelope = dataEnvelope(productSchema);

/**
 * The product's fields with its sizes and colours and its pictures (API.md): without `variants`, `totalStock`
 * is its one variant's; with `images`, `image` is their first.
 */
const productBodySchema = z.object({
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
const orderEnvelope = dataEnvelope(orderSchema);
const featureEnvelope = dataEnvelope(featureSchema);

export const ADMIN_OPERATIONS: ApiOperation[] = [
  // --- Admin -------------------------------------------------------------------------------
  {
    method: "get",
    path: "/api/admin/products/get",
    tag: "Admin",
    summary: "Every product, newest first, paged",
    access: "admin",
    query: adminProductQuerySchema,
    success: {
      200: {
        description: "A page of products",
        schema: dataEnvelope(z.array(productSchema), { paged: true }),
      },
    },
    errors: { 400: "A malformed page or limit" },
  },
  {
    method: "post",
    path: "/api/admin/products/add",
    tag: "Admin",
    summary: "Add a product (upload its image first, or give an /images path)",
    access: "admin",
    body: productBodySchema,
    success: { 201: { description: "The product", schema: productEnvelope } },
    errors: { 400: BAD_JSON, 409: "A SKU another product has", 415: NOT_JSON },
  },
  {
    method: "put",
    path: "/api/admin/products/edit/{id}",
    tag: "Admin",
    summary: "Change some fields of a product",
    access: "admin",
    body: productBodySchema.partial(),
    success: { 200: { description: "The product", schema: productEnvelope } },
    errors: { 400: BAD_JSON, 404: "Unknown product", 409: "A SKU another product has", 415: NOT_JSON },
  },
  {
    method: "delete",
    path: "/api/admin/products/delete/{id}",
    tag: "Admin",
    summary: "Delete a product",
    access: "admin",
    success: { 200: { description: "Deleted", schema: messageEnvelope } },
    errors: { 404: "Unknown product" },
  },
  {
    method: "post",
    path: "/api/admin/products/upload-image",
    tag: "Admin",
    summary: "Upload an image (field my_file, at most 5 MB)",
    access: "admin",
    multipart: true,
    body: z.object({
      my_file: z.string().meta({ format: "binary", description: "jpg, png, gif, webp, svg or bmp" }),
    }),
    success: {
      201: {
        description: "Stored; use result.url as a product's or feature's image",
        schema: z.object({
          success: z.literal(true),
          message: z.string(),
          result: z.object({ url: z.string().meta({ format: "uri" }) }),
        }),
      },
    },
    errors: { 400: "No file, or not an image", 413: "Larger than 5 MB" },
  },
  {
    method: "get",
    path: "/api/admin/orders/get",
    tag: "Admin",
    summary: "Every order, newest first, paged",
    access: "admin",
    query: adminOrderQuerySchema,
    success: {
      200: { description: "A page of orders", schema: dataEnvelope(z.array(orderSchema), { paged: true }) },
    },
    errors: { 400: "A malformed page, limit or status" },
  },
  {
    method: "get",
    path: "/api/admin/orders/details/{id}",
    tag: "Admin",
    summary: "Any order",
    access: "admin",
    success: { 200: { description: "The order", schema: orderEnvelope } },
    errors: { 404: "Unknown order" },
  },
  {
    method: "put",
    path: "/api/admin/orders/update/{id}",
    tag: "Admin",
    summary: "Set an order's status",
    access: "admin",
    body: orderStatusSchema,
    success: { 200: { description: "The order", schema: orderEnvelope } },
    errors: { 400: BAD_JSON, 404: "Unknown order", 409: "Not allowed in the order's state", 415: NOT_JSON },
  },
  {
    method: "post",
    path: "/api/common/feature/add",
    tag: "Feature images",
    summary: "Add a feature image (upload it first)",
    access: "admin",
    body: featureInputSchema,
    success: { 201: { description: "The feature image", schema: featureEnvelope } },
    errors: { 400: BAD_JSON, 415: NOT_JSON },
  },
  {
    method: "delete",
    path: "/api/common/feature/delete/{id}",
    tag: "Feature images",
    summary: "Delete a feature image",
    access: "admin",
    success: { 200: { description: "Deleted", schema: messageEnvelope } },
    errors: { 404: "Unknown feature image" },
  },
  // --- This description ----------------------------------------------------------------------
  {
    method: "get",
    path: "/api/openapi.json",
    tag: "Reference",
    summary: "This OpenAPI 3.1 document",
    access: "public",
    success: { 200: { description: "The document", schema: z.object({ openapi: z.string() }).loose() } },
    errors: {},
  },
  {
    method: "get",
    path: "/api/docs",
    tag: "Reference",
    summary: "The readable reference (HTML, no JavaScript needed)",
    access: "public",
    produces: "text/html",
    success: { 200: { description: "An HTML page", schema: z.string() } },
    errors: {},
  },
];
