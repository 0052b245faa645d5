import { z } from "zod";

/**
 * A review as the shopper writes it (SPEC §5, API.md). Shared by the form
 * (conform validates it in the browser) and the service (which always checks
 * again). Safe to import in the browser.
 */

export const REVIEW_MESSAGE_MAX_LENGTH = 1000;

export const REVIEW_TEXT = {
  ratingRequired: "Please select a rating",
  messageRequired: "Please write a review message",
  loginRequired: "Please login to add a review",
  missingInformation: "Missing required information",
  missingInformationDescription: "Please try again or refresh the page",
  purchaseRequired: "You need to purchase product to review it.",
  alreadyReviewed: "You already reviewed this product!",
  added: "Review added successfully!",
  productNotFound: "Product not found",
} as const;

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
    .max(REVIEW_MESSAGE_MAX_LENGTH, `A review can be at most ${REVIEW_MESSAGE_MAX_LENGTH} characters`),
});

export type ReviewInput = z.infer<typeof reviewSchema>;
