import { GIFT_CARD_TEXT, updateGiftCardSchema } from "~/lib/shared/gift-cards";
import { getGiftCard, updateGiftCard } from "~/services/gift-cards/cards.server";
import { apiJson, apiOperation, apiRoute } from "~/web/api.server";
import { auditByOf } from "~/web/audit.server";
import { giftCardSchema, ledgerEntrySchema } from "~/web/openapi/answers.server";
import { dataEnvelope } from "~/web/openapi/schemas.server";
import { z } from "zod";

// GET → the card with its ledger; PUT → one change: { adjust, reason } | { disabled } | { expiresAt }.
const route = apiRoute({
  GET: apiOperation({
    tag: "Gift cards",
    summary: "One gift card and its ledger (its balance is always the ledger's sum)",
    access: "giftCards",
    success: {
      200: {
        description: "The card and every change of its balance, oldest first",
        schema: dataEnvelope(giftCardSchema.extend({ ledger: z.array(ledgerEntrySchema) })),
      },
    },
    errors: { 404: "Unknown card" },
    handler: async ({ params }) => apiJson({ success: true, data: await getGiftCard(params.id) }),
  }),
  PUT: apiOperation({
    tag: "Gift cards",
    summary: "Adjust the balance with a reason, disable the card, or set its expiry: one change at a time",
    access: "giftCards",
    body: updateGiftCardSchema,
    parsedBy: "service",
    success: { 200: { description: "The card after the change", schema: dataEnvelope(giftCardSchema) } },
    errors: {
      400: "No change or more than one, an adjustment without a reason or below zero, a malformed date",
      404: "Unknown card",
      409: "Changed by someone else since `version`",
    },
    handler: async ({ context, params, caller, input }) => {
      const card = await updateGiftCard(params.id, input, auditByOf(caller, context));
      return apiJson({ success: true, message: GIFT_CARD_TEXT.updated, data: card });
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
