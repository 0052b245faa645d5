/** The unticked box at checkout and on the account page, in words (safe in the browser: no schema library). */
export const MARKETING_CONSENT_LABEL = "Email me about my cart and offers";

/** The box's form field: sent as "on" when ticked, absent otherwise. */
export const MARKETING_CONSENT_FIELD = "marketingConsent";

/** Where a consent was given or withdrawn; every change is kept with it. */
export const CONSENT_SOURCES = ["checkout", "account", "api", "unsubscribe"] as const;
export type ConsentSource = (typeof CONSENT_SOURCES)[number];

export interface MarketingConsentJson {
  consent: boolean;
  /** When the consent now in force was given or withdrawn; null: never asked (the default, no consent). */
  changedAt: string | null;
  source: ConsentSource | null;
}

/** The account page's consent form's `intent`. */
export const MARKETING_INTENT = "marketing-consent";
