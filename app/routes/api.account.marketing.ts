import { z } from "zod";
import { CONSENT_SOURCES, MARKETING_TEXT, marketingConsentSchema } from "~/lib/shared/abandoned-carts";
import { getMarketingConsent, setAccountMarketingConsent } from "~/services/marketing-consent.server";
import { apiJson, apiOperation, apiRoute } from "~/web/api.server";
import { dateTime } from "~/web/openapi/answers.server";
import { dataEnvelope } from "~/web/openapi/schemas.server";

const consentSchema = z
  .object({
    consent: z
      .boolean()
      .meta({ description: "Whether the caller agrees to cart and offer mails (default false)" }),
    changedAt: dateTime.nullable().meta({ description: "When the consent in force was given; null: never" }),
    source: z.enum(CONSENT_SOURCES).nullable().meta({ description: "Where it was given" }),
  })
  .meta({ id: "MarketingConsent" });

const consentEnvelope = dataEnvelope(consentSchema);

// The caller's marketing consent (API.md, "Abandoned-cart mails"); every change is kept with its time and source.
const route = apiRoute({
  GET: apiOperation({
    tag: "Account",
    summary: "The caller's marketing consent (cart and offer mails)",
    access: "signed-in",
    success: { 200: { description: "The consent in force", schema: consentEnvelope } },
    errors: { 401: "Not signed in" },
    handler: async ({ caller }) =>
      apiJson({ success: true, data: await getMarketingConsent({ userId: caller.id }) }),
  }),
  PUT: apiOperation({
    tag: "Account",
    summary: "Give or withdraw the caller's marketing consent",
    access: "signed-in",
    body: marketingConsentSchema.extend({ consent: z.boolean() }),
    success: { 200: { description: "The consent in force after the change", schema: consentEnvelope } },
    errors: { 400: "Malformed JSON, or consent not true or false", 401: "Not signed in" },
    handler: async ({ caller, input }) => {
      const consent = await setAccountMarketingConsent(caller.id, input, "api");
      return apiJson({
        success: true,
        message: consent.consent ? MARKETING_TEXT.consentGiven : MARKETING_TEXT.consentWithdrawn,
        data: consent,
      });
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
