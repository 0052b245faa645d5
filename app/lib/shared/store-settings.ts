import { z } from "zod";
import { flag } from "./delivery-schemas";
import { GIFT_CARD_MAX_CENTS } from "./gift-cards";
import { parseCents } from "./money";

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
  giftCardAmounts: `giftCardAmounts must be a list of at most 10 different amounts between 1 and ${GIFT_CARD_MAX_CENTS / 100}, such as 25, 50, 100`,
};

/** The gift card amounts on sale by default (API.md, "Gift cards and store credit"). */
export const DEFAULT_GIFT_CARD_AMOUNTS = [25, 50, 100];

/**
 * The amounts a shopper may choose for a gift card, in dollars: JSON's list or a form's "25, 50, 100";
 * empty: cards are not sold. Kept sorted, each once.
 */
const giftCardAmounts = z.preprocess(
  (value) => (typeof value === "string" ? value.split(/[\s,]+/).filter(Boolean) : value),
  z
    .array(z.union([z.number(), z.string()]), { error: SETTINGS_TEXT.giftCardAmounts })
    .max(10, { error: SETTINGS_TEXT.giftCardAmounts })
    .transform((amounts, context) => {
      const cents = amounts.map(parseCents);
      if (cents.some((each) => each === null || each < 100 || each > GIFT_CARD_MAX_CENTS)) {
        context.addIssue({ code: "custom", message: SETTINGS_TEXT.giftCardAmounts });
        return z.NEVER;
      }
      return [...new Set(cents as number[])].sort((a, b) => a - b).map((each) => each / 100);
    }),
);

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
  giftCardAmounts: giftCardAmounts.meta({
    description:
      "The gift card amounts shoppers may choose, in dollars (default [25, 50, 100]; empty: not sold)",
  }),
});

/** Every setting, its default filled in, and the rules between them. */
export const storeSettingsSchema = z
  .object({
    storefront: storeSettingsFields.shape.storefront.prefault("members"),
    guestCheckout: storeSettingsFields.shape.guestCheckout,
    abandonedCartMails: storeSettingsFields.shape.abandonedCartMails,
    giftCardAmounts: storeSettingsFields.shape.giftCardAmounts.prefault(DEFAULT_GIFT_CARD_AMOUNTS),
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
