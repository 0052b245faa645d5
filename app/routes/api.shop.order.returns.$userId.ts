import { z } from "zod";
import { dataEnvelope, returnSchema } from "~/web/openapi/schemas.server";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";
import { requireOwnData } from "~/web/auth.server";
import { listReturnsForUser } from "~/services/returns.server";

// GET → the caller's returns, newest first.
const route = apiRoute({
  GET: apiOperation({
    tag: "Returns",
    summary: "The caller's returns, newest first",
    access: "shopper",
    success: { 200: { description: "The returns", schema: dataEnvelope(z.array(returnSchema)) } },
    errors: { 403: "Another shopper's userId, or an admin" },
    handler: async ({ params, caller }) => {
      const user = requireOwnData(caller, params.userId);
      return apiJson({ success: true, data: await listReturnsForUser(user.id) });
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
