import { z } from "zod";
import { parsePaging } from "~/lib/server/paging.server";
import { CUSTOMER_PAGING, searchCustomers } from "~/services/privacy/privacy.server";
import { apiJson, apiOperation, apiRoute } from "~/web/api.server";

const customerSchema = z.object({
  _id: z.string(),
  userName: z.string(),
  email: z.string(),
  createdAt: z.string(),
  orders: z.number().int(),
});

// GET ?q=&page=&limit= → shoppers whose name or email contains q, newest first.
const route = apiRoute({
  GET: apiOperation({
    tag: "Privacy",
    summary: "Find shoppers by name or email (paged), to answer a request about their data",
    access: "customers",
    query: z.object({
      q: z
        .string()
        .max(200)
        .optional()
        .meta({ description: "Part of the name or email; none: every shopper" }),
      page: z.string().optional(),
      limit: z.string().optional(),
    }),
    success: {
      200: {
        description: "One page of shoppers, newest first",
        schema: z.object({
          success: z.literal(true),
          data: z.array(customerSchema),
          pagination: z.object({ page: z.number(), limit: z.number(), total: z.number(), pages: z.number() }),
        }),
      },
    },
    errors: { 400: "A malformed page or limit, or q longer than 200 characters" },
    handler: async ({ request }) => {
      const params = new URL(request.url).searchParams;
      const q = params.get("q") ?? "";
      const paging = parsePaging(params, CUSTOMER_PAGING, {
        errors: q.length > 200 ? { q: ["q must be at most 200 characters"] } : {},
      });
      return apiJson({ success: true, ...(await searchCustomers(q, paging)) });
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
