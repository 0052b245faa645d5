import { getConfig } from "~/lib/server/config.server";
import { destinationOf, isCountryCode, isRegionCode, usStateOfZip } from "~/lib/server/regions.server";

/**
 * An address's destination as a request gives it (API.md, "Sales tax and
 * VAT"): `country` an ISO 3166-1 alpha-2 code (the shop's when left out),
 * `region` a subdivision code of that country (for the US derived from a
 * five-digit ZIP code when left out). Lower case is taken as upper case;
 * an unknown code is refused, naming the field. A US address's state is its
 * ZIP code's: the tax follows it, so a region that says otherwise is refused
 * (else a shopper would pick the state they are taxed in), and so is a US
 * region without a ZIP code of a state to check it against.
 */

export interface Destination {
  country: string;
  region: string | null;
}

export const DESTINATION_TEXT = {
  unknownCountry: "Country must be an ISO 3166-1 two-letter code such as US or DE",
  unknownRegion: (country: string) => `Region is not a state, province or county code of ${country}`,
  notText: (field: string) => `${field} must be a text`,
  notZipState: (region: string, zip: string, state: string) =>
    `Region ${region} does not match ZIP code ${zip}, which is in ${state}`,
  withoutZip: (region: string) =>
    `Region ${region} needs the address's five-digit ZIP code (pincode) in that state`,
};

type DestinationResult = { ok: true; value: Destination } | { ok: false; errors: Record<string, string[]> };

function codeOf(value: unknown): string | null | undefined {
  if (value === undefined || value === null) return null;
  if (typeof value !== "string") return undefined;
  return value.trim().toUpperCase() || null;
}

export function parseDestinationFields(
  input: unknown,
  pincode: string,
  kept?: Destination,
): DestinationResult {
  const body = (typeof input === "object" && input !== null ? input : {}) as Record<string, unknown>;
  const country = codeOf(body.country);
  const region = codeOf(body.region);
  const errors: Record<string, string[]> = {};
  if (country === undefined) errors.country = [DESTINATION_TEXT.notText("country")];
  else if (country !== null && !isCountryCode(country)) errors.country = [DESTINATION_TEXT.unknownCountry];
  if (region === undefined) errors.region = [DESTINATION_TEXT.notText("region")];
  if (Object.keys(errors).length) return { ok: false, errors };
  // Both left out: an edited address keeps its destination (a US one's state follows its ZIP code);
  // otherwise the country is the shop's, and a US region comes from the ZIP code.
  const keep = kept && country === null && region === null;
  const destination = destinationOf(
    { country, region: keep && kept.country !== "US" ? kept.region : region, pincode },
    keep ? kept.country : getConfig().shopCountry,
  );
  if (region && !isRegionCode(destination.country, region)) {
    return { ok: false, errors: { region: [DESTINATION_TEXT.unknownRegion(destination.country)] } };
  }
  // A missing pincode has its own error; there is nothing to check the region against yet.
  if (region && destination.country === "US" && pincode.trim()) {
    const zipState = usStateOfZip(pincode);
    if (!zipState) return { ok: false, errors: { region: [DESTINATION_TEXT.withoutZip(region)] } };
    if (zipState !== region) {
      return {
        ok: false,
        errors: { region: [DESTINATION_TEXT.notZipState(region, pincode.trim(), zipState)] },
      };
    }
  }
  return { ok: true, value: destination };
}

/**
 * Where an address typed with only its postcode is taxed, as an order to it
 * would be (the shop's country; a US region from the ZIP code): the guest
 * checkout shows the tax once the postcode is typed. Null for a blank one.
 */
export function destinationOfPincode(pincode: string): Destination | null {
  if (!pincode.trim()) return null;
  const parsed = parseDestinationFields({}, pincode);
  return parsed.ok ? parsed.value : null;
}

/** Whether orders to two typed postcodes are taxed for one destination. */
export function sameDestinationOfPincodes(first: string, second: string): boolean {
  const [a, b] = [destinationOfPincode(first), destinationOfPincode(second)];
  return a === b || (a !== null && b !== null && a.country === b.country && a.region === b.region);
}
