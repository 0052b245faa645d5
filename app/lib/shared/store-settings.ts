import { z } from "zod";
import { flag } from "./delivery-schemas";

/**
 * The owner's store settings (API.md, "Open storefront and guest checkout"): every setting, its
 * default and its words, defined here once. The service stores what the owner set and reads it back
 * through `storeSettingsSchema`, so a setting never set (a fresh install) reads as its default and
 * a setting added here needs no migration. Safe in the browser.
 */

/** `members`: every shop page needs a sign-in (SPEC.md's behaviour); `open`: anyone may browse. */
export const STOREFRONT_MODES = ["members", "open"] as const;
export type StorefrontMode = (typeof STOREFRONT_MODES)[number];

export const STOREFRONT_MODE_LABELS: Record<StorefrontMode, { label: string; description: string }> = {
  members: {
    label: "Members only",
    description: "Every shop page asks for a sign-in; only people with an account browse and buy.",
  },
  open: {
    label: "Open to everyone",
    description:
      "Anyone may browse the home page, the listing, products, search and the cart without an account.",
  },
};

export const SETTINGS_TEXT = {
  updated: "Settings saved",
  storefront: `storefront must be one of ${STOREFRONT_MODES.join(", ")}`,
  guestNeedsOpen: "Guest checkout needs the open storefront: choose Open to everyone first",
};

/** Each setting on its own, as a change (the API's PUT, the admin's form) sends some of them. */
export const storeSettingsFields = z.object({
  storefront: z
    .enum(STOREFRONT_MODES, { error: SETTINGS_TEXT.storefront })
    .meta({ description: "Who may browse: `members` (default, a sign-in for every shop page) or `open`" }),
  guestCheckout: flag(false, "guestCheckout").meta({
    description: "Whether visitors may buy without an account (default false; only with `open`)",
  }),
  abandonedCartMails: flag(true, "abandonedCartMails").meta({
    description: "Whether carts left behind by owners who consented get their reminder mails (default true)",
  }),
});

/** Every setting, its default filled in, and the rules between them. */
export const storeSettingsSchema = z
  .object({
    storefront: storeSettingsFields.shape.storefront.prefault("members"),
    guestCheckout: storeSettingsFields.shape.guestCheckout,
    abandonedCartMails: storeSettingsFields.shape.abandonedCartMails,
  })
  .superRefine((settings, context) => {
    if (settings.guestCheckout && settings.storefront !== "open") {
      context.addIssue({ code: "custom", path: ["guestCheckout"], message: SETTINGS_TEXT.guestNeedsOpen });
    }
  });

export type StoreSettings = z.output<typeof storeSettingsSchema>;

export interface StoreSettingsJson extends StoreSettings {
  version: number;
  updatedAt: string;
}
