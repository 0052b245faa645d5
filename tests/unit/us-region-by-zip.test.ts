import { describe, expect, it } from "vitest";
import { destinationOf, usStateOfZip } from "../../app/lib/server/regions.server";
import { parseDestinationFields } from "../../app/services/address-destination.server";

/**
 * A US address's state is its ZIP code's (API.md, "Sales tax and VAT";
 * docs/decisions/0030): derived when left out, refused when it contradicts
 * the ZIP, and the ZIP's state when an address is read for its tax.
 */

describe("the state of a ZIP code", () => {
  it.each([
    ["10001", "NY"],
    ["00501", "NY"],
    ["01810", "MA"],
    ["05501", "MA"],
    ["19901", "DE"],
    ["20001", "DC"],
    ["20166", "VA"],
    ["73301", "TX"],
    ["94103", "CA"],
    ["99501", "AK"],
    ["00901", "PR"],
    ["96910", "GU"],
    ["96950", "MP"],
    ["96799", "AS"],
    ["10001-1234", "NY"],
  ])("%s is in %s", (zip, state) => {
    expect(usStateOfZip(zip)).toBe(state);
  });

  it.each(["09001", "34001", "96201", "96940", "96960", "NW1 6XE", "1000", "100011", ""])(
    "%s names no state",
    (zip) => {
      expect(usStateOfZip(zip)).toBeNull();
    },
  );
});

describe("an address's destination as read", () => {
  it("takes a US address's state from its ZIP code, even when a stored region says otherwise", () => {
    expect(destinationOf({ country: "US", region: "DE", pincode: "10001" }, "US")).toEqual({
      country: "US",
      region: "NY",
    });
    expect(destinationOf({ country: null, region: null, pincode: "10001" }, "US")).toEqual({
      country: "US",
      region: "NY",
    });
  });

  it("keeps the stored region where the ZIP code names no state, and outside the US", () => {
    expect(destinationOf({ country: "US", region: "NY", pincode: "NW1 6XE" }, "US")).toEqual({
      country: "US",
      region: "NY",
    });
    expect(destinationOf({ country: "DE", region: "BY", pincode: "10001" }, "US")).toEqual({
      country: "DE",
      region: "BY",
    });
  });
});

describe("an address's destination as sent", () => {
  it("fills a US region left out from the ZIP code", () => {
    expect(parseDestinationFields({ country: "US" }, "10001")).toEqual({
      ok: true,
      value: { country: "US", region: "NY" },
    });
  });

  it("takes a region that agrees with the ZIP code, in any case", () => {
    expect(parseDestinationFields({ country: "us", region: "ny" }, "10001")).toEqual({
      ok: true,
      value: { country: "US", region: "NY" },
    });
  });

  it("refuses a region that contradicts the ZIP code's state, naming the region", () => {
    const result = parseDestinationFields({ country: "US", region: "DE" }, "10001");
    expect(result).toEqual({
      ok: false,
      errors: { region: ["Region DE does not match ZIP code 10001, which is in NY"] },
    });
  });

  it("refuses a US region whose pincode is no ZIP code of a state (nothing to check it against)", () => {
    const result = parseDestinationFields({ country: "US", region: "DE" }, "NW1 6XE");
    expect(result.ok).toBe(false);
    expect(!result.ok && result.errors.region).toEqual([
      "Region DE needs the address's five-digit ZIP code (pincode) in that state",
    ]);
  });

  it("checks a region against the ZIP code for the shop's country when no country is sent", () => {
    expect(parseDestinationFields({ region: "DE" }, "10001").ok).toBe(false);
  });

  it("leaves a ZIP-like pincode of another country alone", () => {
    expect(parseDestinationFields({ country: "DE", region: "BY" }, "10001")).toEqual({
      ok: true,
      value: { country: "DE", region: "BY" },
    });
  });

  it("adds no region error when the pincode itself is missing (its own error says so)", () => {
    expect(parseDestinationFields({ country: "US", region: "NY" }, "")).toEqual({
      ok: true,
      value: { country: "US", region: "NY" },
    });
  });
});
