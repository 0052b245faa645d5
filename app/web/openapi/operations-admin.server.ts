import { z } from "zod";
import { featureInputSchema, productInputSchema } from "~/lib/shared/admin-schemas";
import { productImagesInputSchema } from "~/lib/shared/product-schema";
import { variantsInputSchema } from "~/lib/shared/variant-schema";
import { VERSION_CONFLICT_MESSAGE } from "~/services/audit.server";
import {
  CATALOGUE_COLUMNS,
  MAX_IMPORT_BYTES,
  MAX_IMPORT_ROWS,
  REQUIRED_COLUMNS,
} from "~/lib/shared/catalogue-csv";
import type { ApiOperation } from "./operation.server";
import { salesReportQuerySchema, salesReportSchema } from "./report-schemas.server";
import {
  adminOrderExportQuerySchema,
  adminOrderQuerySchema,
  adminOrderUpdateBodySchema,
  adminProductQuerySchema,
  auditEntrySchema,
  auditQueryOpenApiSchema,
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
/** The `version` an admin edit was based on: optional, and without it the edit applies as the spec's clients expect. */
const editVersion = z.int().min(1).optional().meta({
  description: "The version the edit was based on: 409 when the thing changed since; omit to apply anyway",
});
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
    body: productBodySchema.partial().extend({ version: editVersion }),
    success: { 200: { description: "The product", schema: productEnvelope } },
    errors: {
      400: BAD_JSON,
      404: "Unknown product",
      409: `A SKU another product has, or "${VERSION_CONFLICT_MESSAGE}" (the product changed since \`version\`)`,
      415: NOT_JSON,
    },
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
    path: "/api/admin/products/export",
    tag: "Admin",
    summary: "The catalogue as a CSV file, one row per variant",
    description:
      `UTF-8 with a byte-order mark, a header row, the columns ${CATALOGUE_COLUMNS.join(", ")}. Prices in ` +
      "currency units with two decimals (an empty salePrice: not on sale); `image` is an absolute URL. A cell " +
      "that a spreadsheet would run as a formula starts with an apostrophe, which the import takes off again.",
    access: "admin",
    query: z.object({
      search: z
        .string()
        .optional()
        .meta({ description: "Only the products the admin list's search matches" }),
    }),
    success: { 200: { description: "The CSV file", schema: z.string() } },
    errors: {},
    produces: "text/csv",
  },
  {
    method: "post",
    path: "/api/admin/products/import",
    tag: "Admin",
    summary: "Import a catalogue CSV file (field my_file): all rows or none",
    description:
      "The export's format, the columns in any order; " +
      `${REQUIRED_COLUMNS.join(", ")} are required, an absent optional column is an empty cell on every row. ` +
      "Rows with a `productId` are that product's variants; rows without one are new products, grouped by " +
      "title and brand. A row whose SKU one of the product's variants has updates it, any other row creates a " +
      "variant (an empty SKU is generated); variants the file leaves out are kept. Every row is judged by the " +
      "product form's rules; the rows of one product must agree on its own fields. " +
      `At most ${MAX_IMPORT_BYTES / 1024 / 1024} MB and ${MAX_IMPORT_ROWS} rows.`,
    access: "admin",
    multipart: true,
    body: z.object({
      my_file: z.string().meta({ format: "binary", description: "The CSV file (UTF-8)" }),
    }),
    success: {
      200: {
        description: "Imported: `created` and `updated` count variants",
        schema: z.object({
          success: z.literal(true),
          message: z.string(),
          created: z.number().int().meta({ description: "Variants created (on new or existing products)" }),
          updated: z.number().int().meta({ description: "Existing variants matched by SKU and written" }),
        }),
      },
    },
    errors: {
      400: "No file, or not UTF-8 text",
      409: "A SKU was taken by another admin meanwhile: import again",
      413: "Larger than 10 MB",
      422: "Refused rows, columns or file: nothing was imported",
    },
    refusals: {
      statuses: [422],
      schema: z.object({
        success: z.literal(false),
        message: z.string(),
        errors: z.array(
          z.object({
            row: z.number().int().meta({ description: "As a spreadsheet numbers it: the header is row 1" }),
            column: z.string().meta({ description: "The column's name; empty for the whole row or file" }),
            message: z.string(),
          }),
        ),
      }),
    },
  },
  {
    method: "get",
    path: "/api/admin/orders/get",
    tag: "Admin",
    summary: "Every order matching the filters (all of them combined), newest first, paged",
    access: "admin",
    query: adminOrderQuerySchema,
    success: {
      200: { description: "A page of orders", schema: dataEnvelope(z.array(orderSchema), { paged: true }) },
    },
    errors: {
      400: "A malformed page, limit, status, payment status or date, from after to, or q too long",
    },
  },
  {
    method: "get",
    path: "/api/admin/orders/export",
    tag: "Admin",
    summary: "The matching orders as CSV: one row per order line, every page, newest order first",
    description:
      "Columns: orderId, createdAt, customerEmail, customerName, orderStatus, paymentStatus, title, sku, size, colour, quantity, unitPrice, lineTotal, orderTotal, carrier, trackingNumber. UTF-8 with a byte-order mark; a cell a spreadsheet would run as a formula starts with an apostrophe.",
    access: "admin",
    query: adminOrderExportQuerySchema,
    produces: "text/csv",
    success: { 200: { description: "A CSV file (streamed)", schema: z.string() } },
    errors: { 400: "A malformed status, payment status or date, from after to, or q too long" },
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
    summary: "Set an order's status, and its tracking when it ships",
    access: "admin",
    body: adminOrderUpdateBodySchema.extend({ version: editVersion }),
    success: { 200: { description: "The order", schema: orderEnvelope } },
    errors: {
      400: BAD_JSON,
      404: "Unknown order",
      409: `Not allowed in the order's state (tracking is set from inShipping on), or "${VERSION_CONFLICT_MESSAGE}" (the order changed since \`version\`)`,
      415: NOT_JSON,
    },
  },
  {
    method: "get",
    path: "/api/admin/reports/sales",
    tag: "Admin",
    summary: "Sales of whole days in the shop's time zone (default the last 30), with the period before",
    access: "admin",
    query: salesReportQuerySchema,
    success: { 200: { description: "The sales report", schema: dataEnvelope(salesReportSchema) } },
    errors: { 400: "A malformed date, from after to, or more than 366 days" },
  },
  {
    method: "get",
    path: "/api/admin/audit",
    tag: "Admin",
    summary: "The audit log: every admin change, newest first, paged (read only: no entry can change)",
    access: "admin",
    query: auditQueryOpenApiSchema,
    success: {
      200: {
        description: "A page of entries",
        schema: dataEnvelope(z.array(auditEntrySchema), { paged: true }),
      },
    },
    errors: { 400: "An unknown entity or action, a malformed entityId, date, page or limit" },
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
