import { z } from "zod";
import { GIFT_CARD_TEXT, issueGiftCardSchema } from "~/lib/shared/gift-cards";
import { issueGiftCard, listGiftCards } from "~/services/gift-cards/cards.server";
import { apiJson, apiOperation, apiRoute } from "~/web/api.server";
import { auditByOf } from "~/web/audit.server";
import { giftCardSchema } from "~/web/openapi/answers.server";
import { dataEnvelope } from "~/web/openapi/schemas.server";

// GET ?q= → cards by last four or recipient (at most 100, newest first); POST → 201 a card issued and mailed.
const route = apiRoute({
  GET: apiOperation({
    tag: "Gift cards",
    summary: "Find gift cards by the code's last four characters or the recipient's email",
    access: "giftCards",
    query: z.object({
      q: z.string().optional().meta({
        description: "The last four characters, or part of the recipient's email; none: the newest",
      }),
    }),
    success: {
      200: { description: "At most 100 cards, newest first", schema: dataEnvelope(z.array(giftCardSchema)) },
    },
    errors: {},
    handler: async ({ request }) => {
      const q = new URL(request.url).searchParams.get("q");
      return apiJson({ success: true, data: await listGiftCards(q) });
    },
  }),
  POST: apiOperation({
    tag: "Gift cards",
    summary: "Issue a card for customer service; its code goes to the recipient by mail, and only there",
    access: "giftCards",
    body: issueGiftCardSchema,
    success: { 201: { description: "The card (its last four only)", schema: dataEnvelope(giftCardSchema) } },
    errors: { 400: "An amount out of range, an invalid email or no note (`errors` names the field)" },
    handler: async ({ context, caller, input }) => {
      const card = await issueGiftCard(input, auditByOf(caller, context));
      return apiJson({ success: true, message: GIFT_CARD_TEXT.issued, data: card }, { status: 201 });
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
