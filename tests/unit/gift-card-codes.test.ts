import { describe, expect, it } from "vitest";
import { giftCardCodeHash, newGiftCardCode } from "../../app/lib/server/gift-card-codes.server";
import {
  formatGiftCardCode,
  GIFT_CARD_CODE_ALPHABET,
  GIFT_CARD_CODE_LENGTH,
  lastFourOf,
  normalizeGiftCardCode,
} from "../../app/lib/shared/gift-cards";

describe("gift card codes", () => {
  it("draws 16 characters of an alphabet without look-alikes, grouped by four when shown", () => {
    for (const lookAlike of ["0", "O", "1", "I", "L"])
      expect(GIFT_CARD_CODE_ALPHABET).not.toContain(lookAlike);
    const code = newGiftCardCode();
    expect(code).toMatch(new RegExp(`^[${GIFT_CARD_CODE_ALPHABET}]{${GIFT_CARD_CODE_LENGTH}}$`));
    expect(formatGiftCardCode(code)).toMatch(/^[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}$/);
    expect(lastFourOf(code)).toBe(code.slice(12));
  });

  it("never repeats itself and uses every character about equally (80 000 characters drawn)", () => {
    const codes = Array.from({ length: 5_000 }, newGiftCardCode);
    expect(new Set(codes).size).toBe(codes.length);
    const counts = new Map<string, number>();
    for (const character of codes.join("")) counts.set(character, (counts.get(character) ?? 0) + 1);
    expect(counts.size).toBe(GIFT_CARD_CODE_ALPHABET.length);
    const expected = (5_000 * GIFT_CARD_CODE_LENGTH) / GIFT_CARD_CODE_ALPHABET.length;
    for (const count of counts.values()) expect(Math.abs(count - expected) / expected).toBeLessThan(0.12);
  });

  it("reads a code as typed: case, spaces and dashes do not matter; anything else is no code", () => {
    const code = "ABCDEFGHJKMNPQRS";
    expect(normalizeGiftCardCode("abcd-efgh jkmn-pqrs")).toBe(code);
    expect(normalizeGiftCardCode(" ABCDEFGHJKMNPQRS ")).toBe(code);
    expect(normalizeGiftCardCode("ABCDEFGHJKMNPQR")).toBeNull();
    expect(normalizeGiftCardCode("ABCDEFGHJKMNPQRO")).toBeNull();
    expect(normalizeGiftCardCode(42)).toBeNull();
  });

  it("stores a code as the SHA-256 of its normalized form, the same however it was typed", () => {
    const hash = giftCardCodeHash("ABCD-EFGH-JKMN-PQRS");
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(giftCardCodeHash("abcdefghjkmnpqrs")).toBe(hash);
    expect(giftCardCodeHash("ABCD-EFGH-JKMN-PQRT")).not.toBe(hash);
    expect(giftCardCodeHash("nope")).toBeNull();
  });
});
