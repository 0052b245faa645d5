import { controlCharacterMessage, hasControlCharacter } from "./text-rules";

/**
 * A parcel's tracking: the carriers an admin may choose and where each one
 * shows a parcel. One definition for the admin's select, the API's schema,
 * the shopper's order page and the "on its way" mail. Safe to import in the browser.
 */

export const CARRIERS = [
  "DHL",
  "UPS",
  "FedEx",
  "USPS",
  "Royal Mail",
  "DPD",
  "GLS",
  "La Poste",
  "Other",
] as const;
type Carrier = (typeof CARRIERS)[number];

export const TRACKING_NUMBER_MAX = 64;

/** The carriers' public tracking pages; "Other" has none, so the shopper sees the number alone. */
const TRACKING_PAGES: Partial<Record<Carrier, (number: string) => string>> = {
  DHL: (n) => `https://www.dhl.com/global-en/home/tracking/tracking-express.html?submit=1&tracking-id=${n}`,
  UPS: (n) => `https://www.ups.com/track?tracknum=${n}`,
  FedEx: (n) => `https://www.fedex.com/fedextrack/?trknbr=${n}`,
  USPS: (n) => `https://tools.usps.com/go/TrackConfirmAction?tLabels=${n}`,
  "Royal Mail": (n) => `https://www.royalmail.com/track-your-item#/tracking-results/${n}`,
  DPD: (n) => `https://tracking.dpd.de/status/en_US/parcel/${n}`,
  GLS: (n) => `https://gls-group.com/EU/en/parcel-tracking?match=${n}`,
  "La Poste": (n) => `https://www.laposte.fr/outils/suivre-vos-envois?code=${n}`,
};

export function isCarrier(value: unknown): value is Carrier {
  return typeof value === "string" && (CARRIERS as readonly string[]).includes(value);
}

/** The carrier's page for this parcel, or null (no number, no carrier, or a carrier without a known page). */
export function trackingUrl(carrier: string | null, trackingNumber: string | null): string | null {
  if (!trackingNumber || !isCarrier(carrier)) return null;
  const page = TRACKING_PAGES[carrier];
  return page ? page(encodeURIComponent(trackingNumber)) : null;
}

/**
 * Why a typed tracking number is refused, or null when it is fine: 1 to 64
 * characters after trimming, printable (no control characters, not even
 * the line breaks free text allows: a tracking number is one line).
 */
export function trackingNumberProblem(value: string): string | null {
  if (value.length < 1 || value.length > TRACKING_NUMBER_MAX)
    return `Tracking number must be 1 to ${TRACKING_NUMBER_MAX} characters`;
  if (hasControlCharacter(value) || /[\t\n\r]/.test(value)) return controlCharacterMessage("Tracking number");
  return null;
}
