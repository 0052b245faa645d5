import { z } from "zod";
import { MAX_REPORT_DAYS } from "~/lib/shared/report-period";
import { dataEnvelope, money, uuid } from "~/web/openapi/schemas.server";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";

import { reportPeriodOf, salesReport } from "~/services/reports.server";

// The sales report's query and answer (app/services/reports.server.ts).
const date = z.string().meta({ format: "date", description: "A day of the shop's time zone, YYYY-MM-DD" });

const salesReportQuerySchema = z.object({
  from: z
    .string()
    .optional()
    .meta({
      format: "date",
      description: `First day (YYYY-MM-DD, the shop's time zone), default 29 days before \`to\`; at most ${MAX_REPORT_DAYS} days in all`,
    }),
  to: z
    .string()
    .optional()
    .meta({ format: "date", description: "Last day, included (YYYY-MM-DD), default today" }),
});

const salesFiguresShape = {
  revenue: money.meta({ description: "Money captured in the period less money refunded in it" }),
  orders: z.number().int().meta({ description: "Orders whose payment was captured in the period" }),
  averageOrderValue: money.meta({ description: "What those orders were captured for, on average" }),
  units: z.number().int().meta({ description: "Items in those orders" }),
  refunded: money.meta({ description: "Money refunded in the period, whenever it was captured" }),
  tax: money.meta({ description: "Tax of the orders captured in the period, less tax refunded in it" }),
};

const salesReportSchema = z.object({
  from: date,
  to: date,
  timeZone: z.string().meta({ description: "The shop's time zone (SHOP_TIMEZONE), an IANA name" }),
  ...salesFiguresShape,
  previous: z
    .object(salesFiguresShape)
    .meta({ description: "The same figures for the period of the same length just before" }),
  byDay: z
    .array(
      z.object({
        date,
        revenue: money.meta({ description: "Captured that day less refunded that day (may be negative)" }),
        orders: z.number().int(),
      }),
    )
    .meta({ description: "Every day of the period, in order, days without sales included" }),
  topProducts: z.array(
    z.object({ productId: uuid, title: z.string(), units: z.number().int(), revenue: money }),
  ),
  lowStock: z
    .array(
      z.object({
        productId: uuid,
        variantId: uuid,
        sku: z.string(),
        title: z.string(),
        size: z.string().nullable(),
        colour: z.string().nullable(),
        totalStock: z.number().int(),
        waiting: z
          .number()
          .int()
          .meta({ description: "Shoppers waiting for this variant to come back (back-in-stock alerts)" }),
      }),
    )
    .meta({ description: "Variants with less stock than LOW_STOCK_THRESHOLD, fewest first" }),
  recovered: z
    .object({
      orders: z.number().int(),
      revenue: money,
    })
    .meta({
      description:
        "Orders paid in the period within 7 days after their cart's abandoned-cart restore link was opened",
    }),
  giftCards: z
    .object({
      sold: money.meta({ description: "Cards sold in the period (not revenue: the goods they pay for are)" }),
      redeemed: money.meta({ description: "What cards paid in the period, less what went back to them" }),
      outstanding: money.meta({ description: "Every live card's balance now" }),
    })
    .meta({ description: "Gift cards" }),
});

// GET ?from=YYYY-MM-DD&to=YYYY-MM-DD → the sales report of those shop days (default: the last 30).
const route = apiRoute({
  GET: apiOperation({
    tag: "Admin",
    summary: "Sales of whole days in the shop's time zone (default the last 30), with the period before",
    access: "reports",
    query: salesReportQuerySchema,
    success: { 200: { description: "The sales report", schema: dataEnvelope(salesReportSchema) } },
    errors: { 400: "A malformed date, from after to, or more than 366 days" },
    handler: async ({ request }) => {
      const params = new URL(request.url).searchParams;
      const period = reportPeriodOf({ from: params.get("from"), to: params.get("to") });
      return apiJson({ success: true, data: await salesReport(period) });
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
