import { z } from "zod";
import { getStoreSettings } from "~/services/store-settings.server";
import { apiJson, apiOperation, apiRoute } from "~/web/api.server";
import { dataEnvelope, money } from "~/web/openapi/schemas.server";

// GET → { amounts }: the gift card amounts on sale (the owner's settings; empty: cards are not sold). Public.
const route = apiRoute({
  GET: apiOperation({
    tag: "Gift cards",
    summary: "The gift card amounts a shopper may buy (empty: gift cards are not sold)",
    access: "public",
    success: {
      200: {
        description: "The amounts, smallest first",
        schema: dataEnvelope(z.object({ amounts: z.array(money) })),
      },
    },
    errors: {},
    handler: async () => {
      const { giftCardAmounts } = await getStoreSettings();
      return apiJson({ success: true, data: { amounts: giftCardAmounts } });
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
