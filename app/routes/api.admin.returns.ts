import { returnSchema, paginationSchema } from "~/web/openapi/schemas.server";
import { z } from "zod";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";

import type { FieldErrors } from "~/lib/server/errors.server";
import { parsePaging } from "~/lib/server/paging.server";
import { RETURN_STATUSES, RETURN_TYPES } from "~/lib/shared/returns";
import {
  listReturns,
  parseReturnStatusFilter,
  parseReturnTypeFilter,
  RETURNS_PAGING,
} from "~/services/returns.server";

// GET ?status&type&page&limit → the returns and exchanges, newest first, with pagination.
const route = apiRoute({
  GET: apiOperation({
    tag: "Returns",
    summary: "Every return and exchange, newest first",
    access: "returns",
    query: z.object({
      status: z.enum(RETURN_STATUSES).optional(),
      type: z.enum(RETURN_TYPES).optional(),
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
    errors: { 400: "An unknown status or type, or a page or limit out of range" },
    handler: async ({ request }) => {
      const params = new URL(request.url).searchParams;
      const raw = params.get("status");
      const status = parseReturnStatusFilter(raw);
      const errors: FieldErrors = {};
      if (raw && !status) errors.status = [`Status must be one of: ${RETURN_STATUSES.join(", ")}`];
      const rawType = params.get("type");
      const type = parseReturnTypeFilter(rawType);
      if (rawType && !type) errors.type = [`Type must be one of: ${RETURN_TYPES.join(", ")}`];
      // One 400 names every problem of the query, the paging's among them.
      const paging = parsePaging(params, RETURNS_PAGING, { errors });
      const { returns, pagination } = await listReturns(status, paging, type);
      return apiJson({ success: true, data: returns, pagination });
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
