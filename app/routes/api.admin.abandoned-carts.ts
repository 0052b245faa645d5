import { z } from "zod";
import { listAbandonedCarts } from "~/services/abandoned-carts.server";
import { reportPeriodOf } from "~/services/reports.server";
import { apiJson, apiOperation, apiRoute } from "~/web/api.server";
import { dateTime } from "~/web/openapi/answers.server";
import { dataEnvelope, money, uuid } from "~/web/openapi/schemas.server";

const day = (description: string) => z.string().optional().meta({ format: "date", description });

const abandonedCartSchema = z
  .object({
    _id: uuid,
    email: z.string().meta({ description: "Where the mails went" }),
    items: z.array(
      z.object({
        productId: uuid,
        variantId: uuid,
        title: z.string(),
        size: z.string().nullable(),
        colour: z.string().nullable(),
        quantity: z.number().int(),
        price: money.meta({ description: "The unit price at the first mail" }),
      }),
    ),
    value: money.meta({ description: "The items' value at the first mail" }),
    lastActivityAt: dateTime.meta({ description: "The cart's last change (or checkout) before the mails" }),
    mailsSent: z.number().int().min(1).max(2),
    restoredAt: dateTime.nullable().meta({ description: "When the restore link was first opened" }),
    recoveredOrderId: uuid
      .nullable()
      .meta({ description: "The order paid from the restored cart within 7 days, if any" }),
  })
  .meta({ id: "AbandonedCart" });

// GET ?from=&to= → the carts first mailed on those shop days (default the last 30), newest first.
const route = apiRoute({
  GET: apiOperation({
    tag: "Admin",
    summary: "Abandoned carts that got their reminder mail, and what came back",
    access: "orders",
    query: z.object({
      from: day(
        "First day of the first mail (YYYY-MM-DD, the shop's time zone), default 29 days before `to`",
      ),
      to: day("Last day, included (YYYY-MM-DD), default today"),
    }),
    success: { 200: { description: "The carts", schema: dataEnvelope(z.array(abandonedCartSchema)) } },
    errors: { 400: "A malformed date, from after to, or more than 366 days" },
    handler: async ({ request }) => {
      const params = new URL(request.url).searchParams;
      const period = reportPeriodOf({ from: params.get("from"), to: params.get("to") });
      return apiJson({ success: true, data: await listAbandonedCarts(period) });
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
