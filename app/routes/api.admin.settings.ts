import { z } from "zod";
import { STOREFRONT_MODES, storeSettingsFields } from "~/lib/shared/store-settings";
import { getStoreSettings, SETTINGS_TEXT, updateStoreSettings } from "~/services/store-settings.server";
import { apiJson, apiOperation, apiRoute } from "~/web/api.server";
import { auditByOf } from "~/web/audit.server";
import { dateTime, editVersion } from "~/web/openapi/answers.server";
import { dataEnvelope } from "~/web/openapi/schemas.server";

const settingsSchema = z
  .object({
    storefront: z.enum(STOREFRONT_MODES),
    guestCheckout: z.boolean(),
    abandonedCartMails: z.boolean(),
    giftCardAmounts: z.array(z.number()).meta({ description: "Gift card amounts on sale (empty: not sold)" }),
    version: z.int().min(1),
    updatedAt: dateTime,
  })
  .meta({ id: "StoreSettings" });

const settingsEnvelope = dataEnvelope(settingsSchema);

// GET the settings; PUT the ones sent (the others keep their values), on the audit log.
const route = apiRoute({
  GET: apiOperation({
    tag: "Admin",
    summary: "The store's settings: who may browse, whether guests may buy, abandoned-cart mails, gift cards",
    access: "settings",
    success: { 200: { description: "Every setting, defaults filled in", schema: settingsEnvelope } },
    errors: {},
    handler: async () => apiJson({ success: true, data: await getStoreSettings() }),
  }),
  PUT: apiOperation({
    tag: "Admin",
    summary: "Change some of the store's settings",
    access: "settings",
    body: storeSettingsFields.partial().extend({ version: editVersion }),
    success: { 200: { description: "Every setting after the change", schema: settingsEnvelope } },
    errors: {
      400: "A value out of its list, guest checkout without the open storefront, a gift card amount out of range, or malformed JSON (`errors` names the field)",
      409: "Changed by someone else since `version`",
    },
    handler: async ({ context, caller, input }) => {
      const settings = await updateStoreSettings(input, auditByOf(caller, context));
      return apiJson({ success: true, message: SETTINGS_TEXT.updated, data: settings });
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
