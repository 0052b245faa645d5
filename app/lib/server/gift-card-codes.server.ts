import { createHash, randomInt } from "node:crypto";
import {
  GIFT_CARD_CODE_ALPHABET,
  GIFT_CARD_CODE_LENGTH,
  normalizeGiftCardCode,
} from "~/lib/shared/gift-cards";

/**
 * Gift card codes: drawn from the operating system's random source (node:crypto's `randomInt`, unbiased),
 * and kept only as a SHA-256 hash. Sixteen characters of a 31-letter alphabet are 79 bits: a hash of that
 * much chance needs no salt or slow hash to be out of reach, and one hash per code lets the database find a
 * card by its code with an index.
 */

/** A new code, ungrouped: "ABCDEFGHJKMNPQRS". */
export function newGiftCardCode(): string {
  let code = "";
  for (let i = 0; i < GIFT_CARD_CODE_LENGTH; i += 1) {
    code += GIFT_CARD_CODE_ALPHABET[randomInt(GIFT_CARD_CODE_ALPHABET.length)];
  }
  return code;
}

/** The stored form of a code (as typed: grouping and case do not matter); null for what cannot be a code. */
export function giftCardCodeHash(input: unknown): string | null {
  const code = normalizeGiftCardCode(input);
  return code === null ? null : createHash("sha256").update(code).digest("hex");
}
