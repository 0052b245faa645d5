import { z } from "zod";
import { getStoreCredit } from "~/services/gift-cards/store-credit.server";
import { apiJson, apiOperation, apiRoute } from "~/web/api.server";
import { ledgerEntrySchema } from "~/web/openapi/answers.server";
import { dataEnvelope, money } from "~/web/openapi/schemas.server";

// GET → { balance, entries }: the caller's store credit and every change of it, oldest first.
const route = apiRoute({
  GET: apiOperation({
    tag: "Account",
    summary: "The caller's store credit: the balance and its ledger",
    access: "shopper",
    success: {
      200: {
        description: "The balance (0 when none was ever given) and its entries",
        schema: dataEnvelope(z.object({ balance: money, entries: z.array(ledgerEntrySchema) })),
      },
    },
    errors: { 401: "Not signed in", 403: "An admin or staff member (they hold no store credit)" },
    handler: async ({ caller }) => apiJson({ success: true, data: await getStoreCredit(caller.id) }),
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
