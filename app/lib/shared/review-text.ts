/**
 * The review form's limits and messages, without zod: the product dialog and
 * page import these (the schema in ./review-schema stays on the server, where
 * conform validates the review).
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
