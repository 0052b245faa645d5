import { z } from "zod";
import { REVIEW_MESSAGE_MAX_LENGTH, REVIEW_TEXT } from "./review-text";
import { controlCharacterMessage, hasControlCharacter } from "./text-rules";

/**
 * A review as the shopper writes it (SPEC §5, API.md), checked on the server
 * (the HTML action through conform, and the JSON API). The browser imports
 * only ./review-text: importing this module would bring zod into the page's
 * JavaScript (docs/decisions/0008).
 */

export { REVIEW_MESSAGE_MAX_LENGTH, REVIEW_TEXT };

export const reviewSchema = z.object({
  productId: z
    .string({ message: REVIEW_TEXT.missingInformation })
    .trim()
    .min(1, REVIEW_TEXT.missingInformation),
  reviewValue: z
    .number({ message: REVIEW_TEXT.ratingRequired })
    .int("The rating must be a whole number of stars from 1 to 5")
    .min(1, "The rating must be a whole number of stars from 1 to 5")
    .max(5, "The rating must be a whole number of stars from 1 to 5"),
  reviewMessage: z
    .string({ message: REVIEW_TEXT.messageRequired })
    .trim()
    .min(1, REVIEW_TEXT.messageRequired)
    .max(REVIEW_MESSAGE_MAX_LENGTH, `A review can be at most ${REVIEW_MESSAGE_MAX_LENGTH} characters`)
    .refine((value) => !hasControlCharacter(value), controlCharacterMessage("A review")),
});
