import { z } from "zod";
import { TAX_APPLIES_TO } from "~/lib/shared/order-tax";
import type { ApiOperation } from "./operation.server";
import { dataEnvelope, messageEnvelope, money, taxLineSchema, uuid } from "./schemas.server";

/**
 * Sales tax and VAT (API.md "Sales tax and VAT"): the admin's rates and the
 * cart's estimate. The rate body is validated by lib/shared/tax-schemas.ts,
 * which also reads the admin form's text fields; these describe its JSON form.
 */

const BAD_INPUT =
  "Invalid fields (`errors` names them), an unknown country or region code, or malformed JSON";
const NOT_JSON = "The body is not JSON";

const taxRateSchema = z
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

const taxRateBody = z.object({
  name: z.string().max(100),
  country: z.string().meta({ description: "ISO 3166-1 alpha-2, such as US" }),
  region: z
    .string()
    .nullish()
    .meta({ description: "A subdivision code of the country, such as NY; none: the whole country" }),
  rate: z.union([z.number(), z.string()]).meta({ description: "Percent from 0 to 100, up to four decimals" }),
  appliesTo: z.array(z.enum(TAX_APPLIES_TO)).min(1),
  exemptBelow: z.union([z.number(), z.string()]).nullish().meta({ description: "An amount such as 110" }),
  version: z
    .int()
    .optional()
    .meta({ description: "The version the edit is based on: 409 when it changed since" }),
});

const estimateSchema = z
  .object({
    subtotal: money,
    discountAmount: money,
    shippingAmount: money,
    taxAmount: money,
    taxLines: z.array(taxLineSchema),
    totalAmount: money,
  })
  .meta({ id: "TaxEstimate" });

const rateEnvelope = dataEnvelope(taxRateSchema);

export const TAX_OPERATIONS: ApiOperation[] = [
  {
    method: "post",
    path: "/api/shop/cart/tax-estimate",
    tag: "Delivery and discounts",
    summary: "The cart's money to one of the caller's addresses, tax included, as create computes it",
    access: "shopper",
    body: z.object({
      userId: uuid.optional(),
      addressId: uuid,
      shippingMethodId: uuid.optional().meta({ description: "Default: the cheapest" }),
    }),
    success: { 200: { description: "The estimate", schema: dataEnvelope(estimateSchema) } },
    errors: {
      400: "No addressId, an unknown delivery option or a code that cannot be used",
      403: "Another shopper's userId, or an admin",
      404: "Unknown address, or somebody else's",
      415: NOT_JSON,
    },
  },
  {
    method: "get",
    path: "/api/admin/tax-rates",
    tag: "Admin",
    summary: "Every tax rate",
    access: "admin",
    success: { 200: { description: "The rates", schema: dataEnvelope(z.array(taxRateSchema)) } },
    errors: {},
  },
  {
    method: "post",
    path: "/api/admin/tax-rates",
    tag: "Admin",
    summary: "Add a tax rate (several rates that match a destination add up)",
    access: "admin",
    body: taxRateBody.omit({ version: true }),
    success: { 201: { description: "The rate", schema: rateEnvelope } },
    errors: { 400: BAD_INPUT, 415: NOT_JSON },
  },
  {
    method: "get",
    path: "/api/admin/tax-rates/{id}",
    tag: "Admin",
    summary: "One tax rate",
    access: "admin",
    success: { 200: { description: "The rate", schema: rateEnvelope } },
    errors: { 404: "Unknown rate" },
  },
  {
    method: "put",
    path: "/api/admin/tax-rates/{id}",
    tag: "Admin",
    summary: "Change some fields of a tax rate (orders keep the tax they were made with)",
    access: "admin",
    body: taxRateBody.partial(),
    success: { 200: { description: "The rate", schema: rateEnvelope } },
    errors: {
      400: BAD_INPUT,
      404: "Unknown rate",
      409: "Changed by someone else since `version`",
      415: NOT_JSON,
    },
  },
  {
    method: "delete",
    path: "/api/admin/tax-rates/{id}",
    tag: "Admin",
    summary: "Delete a tax rate (orders keep their tax)",
    access: "admin",
    success: { 200: { description: "Deleted", schema: messageEnvelope } },
    errors: { 404: "Unknown rate" },
  },
];
