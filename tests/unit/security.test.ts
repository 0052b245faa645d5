import { describe, expect, it } from "vitest";
import { isCrossSiteWriteAllowed, nextNonce } from "../../server/security";

const OWN = "http://localhost:3000";
const CORS = "https://app.example.com";

function allowed(input: { method?: string; origin?: string; secFetchSite?: string }): boolean {
  return isCrossSiteWriteAllowed({
    method: input.method ?? "POST",
    origin: input.origin,
    secFetchSite: input.secFetchSite,
    ownOrigins: [OWN],
    corsOrigins: [CORS],
  });
}

describe("isCrossSiteWriteAllowed", () => {
  it.each(["GET", "HEAD", "OPTIONS", "get"])(
    "always allows the safe method %s, whatever its origin",
    (method) => {
      expect(allowed({ method, origin: "https://evil.com", secFetchSite: "cross-site" })).toBe(true);
    },
  );

  it.each(["POST", "PUT", "DELETE", "PATCH"])("allows %s from the shop's own origin", (method) => {
    expect(allowed({ method, origin: OWN, secFetchSite: "same-origin" })).toBe(true);
  });

  it("allows a write from a configured CORS origin", () => {
    expect(allowed({ origin: CORS, secFetchSite: "cross-site" })).toBe(true);
  });

  it.each(["PUT", "DELETE", "POST"])("refuses %s from a foreign origin", (method) => {
    expect(allowed({ method, origin: "https://evil.com", secFetchSite: "cross-site" })).toBe(false);
  });

  it("refuses a foreign origin even when it claims to be same-origin in Sec-Fetch-Site", () => {
    expect(allowed({ origin: "https://evil.com", secFetchSite: "same-origin" })).toBe(false);
  });

  it("refuses a look-alike of the own origin (other port or scheme)", () => {
    expect(allowed({ origin: "http://localhost:3001" })).toBe(false);
    expect(allowed({ origin: "https://localhost:3000" })).toBe(false);
  });

  it('refuses Origin "null" (sandboxed frames, data: URLs)', () => {
    expect(allowed({ origin: "null" })).toBe(false);
    expect(allowed({ origin: "null", secFetchSite: "same-origin" })).toBe(false);
  });

  it.each(["cross-site", "same-site"])("refuses a write without Origin when Sec-Fetch-Site is %s", (site) => {
    expect(allowed({ secFetchSite: site })).toBe(false);
  });

  it.each(["same-origin", "none"])("allows a write without Origin when Sec-Fetch-Site is %s", (site) => {
    expect(allowed({ secFetchSite: site })).toBe(true);
  });

  it("allows a non-browser client that sends neither Origin nor Sec-Fetch-Site", () => {
    expect(allowed({})).toBe(true);
  });
});

describe("nextNonce", () => {
  it("gives every page its own nonce of 16 bytes, also across the pool's refills", () => {
    const nonces = Array.from({ length: 1000 }, () => nextNonce());
    expect(new Set(nonces).size).toBe(nonces.length);
    for (const nonce of nonces) expect(Buffer.from(nonce, "base64")).toHaveLength(16);
    expect(nonces.every((nonce) => /^[A-Za-z0-9+/]{22}==$/.test(nonce))).toBe(true);
  });
});
