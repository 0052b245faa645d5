import { describe, expect, it } from "vitest";
import { matchTotpStep, qrCodeSvg, totpCodeAt, totpStepAt, totpUrl } from "../../app/lib/server/totp.server";
import { isTotpCode, normaliseCode } from "../../app/lib/shared/two-factor";

/** RFC 6238, appendix B: the SHA-1 seed is the ASCII "12345678901234567890" (base32 below). */
const RFC_SECRET = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";

// The RFC lists 8-digit codes; an authenticator shows the last 6 of the same truncation.
const RFC_VECTORS: [number, string][] = [
  [59, "94287082"],
  [1111111109, "07081804"],
  [1111111111, "14050471"],
  [1234567890, "89005924"],
  [2000000000, "69279037"],
  [20000000000, "65353130"],
];

describe("TOTP (RFC 6238: SHA-1, 6 digits, 30-second steps)", () => {
  it.each(RFC_VECTORS)("at %i seconds gives the RFC's code", (seconds, eightDigits) => {
    expect(totpCodeAt(RFC_SECRET, seconds * 1000)).toBe(eightDigits.slice(-6));
  });

  it("accepts the code of the step before and after, and names its step", () => {
    const now = 1_700_000_000_000;
    const step = totpStepAt(now);
    for (const offset of [-1, 0, 1]) {
      const code = totpCodeAt(RFC_SECRET, now + offset * 30_000);
      expect(matchTotpStep(RFC_SECRET, code, now)).toBe(step + offset);
    }
  });

  it("refuses a code two steps away and a code of another secret", () => {
    const now = 1_700_000_000_000;
    expect(matchTotpStep(RFC_SECRET, totpCodeAt(RFC_SECRET, now - 60_000), now)).toBeNull();
    expect(matchTotpStep(RFC_SECRET, totpCodeAt(RFC_SECRET, now + 60_000), now)).toBeNull();
    expect(matchTotpStep("JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP", totpCodeAt(RFC_SECRET, now), now)).toBeNull();
  });

  it("writes the otpauth URL that authenticator apps read, and its QR code as an SVG element", async () => {
    const url = totpUrl(RFC_SECRET, "sam@example.com", "ECommerce Shopping");
    const parsed = new URL(url);
    expect(parsed.protocol).toBe("otpauth:");
    expect(parsed.searchParams.get("secret")).toBe(RFC_SECRET);
    expect(parsed.searchParams.get("algorithm")).toBe("SHA1");
    expect(parsed.searchParams.get("digits")).toBe("6");
    expect(parsed.searchParams.get("period")).toBe("30");
    expect(parsed.searchParams.get("issuer")).toBe("ECommerce Shopping");
    const svg = await qrCodeSvg(url);
    expect(svg.startsWith("<svg ")).toBe(true);
    expect(svg).toContain('role="img"');
    expect(svg).not.toMatch(/<script|on\w+=/i);
  });
});

describe("codes as typed", () => {
  it("drops spaces and dashes and lower-cases, so a backup code may be typed in any grouping", () => {
    expect(normaliseCode(" ABCD-efgh jkmn ")).toBe("abcdefghjkmn");
    expect(normaliseCode("123 456")).toBe("123456");
  });

  it("takes six digits as an authenticator's code and anything else as a backup code", () => {
    expect(isTotpCode("123456")).toBe(true);
    expect(isTotpCode("12345")).toBe(false);
    expect(isTotpCode("abcdefghjkmn")).toBe(false);
  });
});
