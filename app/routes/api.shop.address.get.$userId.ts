import { z } from "zod";
import { dataEnvelope, addressSchema } from "~/web/openapi/schemas.server";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";
import { requireOwnData } from "~/web/auth.server";
import { listAddresses } from "~/services/addresses.server";

// GET → the caller's addresses, oldest first.
const route = apiRoute({
  GET: apiOperation({
    tag: "Addresses",
    summary: "The caller's addresses, oldest first",
    access: "shopper",
    success: { 200: { description: "The addresses", schema: dataEnvelope(z.array(addressSchema)) } },
    errors: { 403: "Signed in as an admin, or the `userId` is not the caller's" },
    handler: async ({ params, caller }) => {
      const user = requireOwnData(caller, params.userId);
      return apiJson({ success: true, data: await listAddresses(user.id) });
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
