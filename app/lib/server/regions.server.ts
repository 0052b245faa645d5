import { iso31661, iso31662 } from "iso-3166";

/**
 * Countries and their regions as ISO 3166 names them (the `iso-3166` data):
 * an address's `country` is an ISO 3166-1 alpha-2 code, its `region` the part
 * after the dash of an ISO 3166-2 subdivision ("NY" of US-NY, "BY" of DE-BY).
 * A US address that names no state takes the one its five-digit ZIP code
 * belongs to (the ZIP's first three digits, as USPS assigns them).
 */

const COUNTRIES = new Set(iso31661.map((entry) => entry.alpha2));

/** Per country, its subdivision codes without the country part. */
const REGIONS = new Map<string, Set<string>>();
for (const entry of iso31662) {
  const [country, region] = entry.code.split("-");
  if (!country || !region) continue;
  let regions = REGIONS.get(country);
  if (!regions) REGIONS.set(country, (regions = new Set()));
  regions.add(region);
}

export function isCountryCode(value: unknown): value is string {
  return typeof value === "string" && COUNTRIES.has(value);
}

export function isRegionCode(country: string, region: string): boolean {
  return REGIONS.get(country)?.has(region) ?? false;
}

/**
 * Five-digit ZIP codes whose prefix is shared: prefix 967 is Hawaii's but for
 * American Samoa, 969 Guam's but for the Northern Mariana Islands and the
 * freely associated states (Palau, Micronesia, the Marshall Islands: countries
 * of their own, no US state).
 */
const ZIP_EXCEPTIONS: readonly (readonly [number, number, string])[] = [
  [96799, 96799, "AS"],
  [96939, 96944, ""],
  [96950, 96952, "MP"],
  [96960, 96960, ""],
  [96970, 96970, ""],
];

/**
 * ZIP code prefixes (first three digits) and their states, in ranges, as USPS
 * assigns them: the first range that holds a prefix wins, so the exceptions
 * come first. Military (AA, AE, AP) prefixes name no state and give none.
 */
const ZIP_RANGES: readonly (readonly [number, number, string])[] = [
  [5, 5, "NY"],
  [55, 55, "MA"],
  [63, 63, "CT"],
  [201, 201, "VA"],
  [340, 340, ""],
  [569, 569, "DC"],
  [733, 733, "TX"],
  [885, 885, "TX"],
  [6, 7, "PR"],
  [8, 8, "VI"],
  [9, 9, "PR"],
  [10, 27, "MA"],
  [28, 29, "RI"],
  [30, 38, "NH"],
  [39, 49, "ME"],
  [50, 59, "VT"],
  [60, 69, "CT"],
  [70, 89, "NJ"],
  [90, 99, ""],
  [100, 149, "NY"],
  [150, 196, "PA"],
  [197, 199, "DE"],
  [200, 205, "DC"],
  [206, 219, "MD"],
  [220, 246, "VA"],
  [247, 268, "WV"],
  [270, 289, "NC"],
  [290, 299, "SC"],
  [300, 319, "GA"],
  [320, 349, "FL"],
  [350, 369, "AL"],
  [370, 385, "TN"],
  [386, 397, "MS"],
  [398, 399, "GA"],
  [400, 427, "KY"],
  [430, 459, "OH"],
  [460, 479, "IN"],
  [480, 499, "MI"],
  [500, 528, "IA"],
  [530, 549, "WI"],
  [550, 567, "MN"],
  [570, 577, "SD"],
  [580, 588, "ND"],
  [590, 599, "MT"],
  [600, 629, "IL"],
  [630, 658, "MO"],
  [660, 679, "KS"],
  [680, 693, "NE"],
  [700, 715, "LA"],
  [716, 729, "AR"],
  [730, 749, "OK"],
  [750, 799, "TX"],
  [800, 816, "CO"],
  [820, 831, "WY"],
  [832, 838, "ID"],
  [840, 847, "UT"],
  [850, 865, "AZ"],
  [870, 884, "NM"],
  [889, 898, "NV"],
  [900, 961, "CA"],
  [962, 966, ""],
  [967, 968, "HI"],
  [969, 969, "GU"],
  [970, 979, "OR"],
  [980, 994, "WA"],
  [995, 999, "AK"],
];

/** The US state of a five-digit ZIP code (ZIP+4 too), or null when it names none. */
export function usStateOfZip(pincode: string): string | null {
  const match = /^(\d{5})(?:-?\d{4})?$/.exec(pincode.trim());
  if (!match) return null;
  const zip = Number(match[1]);
  const exception = ZIP_EXCEPTIONS.find(([from, to]) => zip >= from && zip <= to);
  if (exception) return exception[2] || null;
  const prefix = Math.floor(zip / 100);
  const range = ZIP_RANGES.find(([from, to]) => prefix >= from && prefix <= to);
  return range?.[2] || null;
}

/** An address's destination as stored or sent: country and region, either possibly missing. */
export interface DestinationInput {
  country?: string | null;
  region?: string | null;
  pincode: string;
}

/**
 * The destination an address stands for: its country (the shop's when it
 * names none) and its region. A US address's state is its ZIP code's
 * whenever the ZIP names one, whatever region the row holds: rows written
 * before countries were kept, or before a contradicting region was refused,
 * read (and are taxed) as they would be written now. Used on write and on read.
 */
export function destinationOf(
  input: DestinationInput,
  shopCountry: string,
): { country: string; region: string | null } {
  const country = input.country || shopCountry;
  const zipState = country === "US" ? usStateOfZip(input.pincode) : null;
  return { country, region: zipState ?? (input.region || null) };
}
