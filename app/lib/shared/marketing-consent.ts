/** The unticked box at checkout and on the account page, in words (safe in the browser: no schema library). */
export const MARKETING_CONSENT_LABEL = "Email me about my cart and offers";

/** The box's form field: sent as "on" when ticked, absent otherwise. */
export const MARKETING_CONSENT_FIELD = "marketingConsent";
