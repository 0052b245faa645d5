import { z } from "zod";
import { dataEnvelope, reviewSchemaOut, uuid } from "~/web/openapi/schemas.server";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";
import { requireOwnData } from "~/web/auth.server";
import { REVIEW_TEXT, reviewSchema } from "~/lib/shared/review-schema";
import { addReview } from "~/services/reviews.server";

const reviewBodySchema = reviewSchema.extend({
  userId: uuid.optional(),
  userName: z.string().optional().meta({ description: "Ignored: the account's user name is used" }),
});

/**
 * POST /api/shop/review/add { productId, userId, userName, reviewMessage, reviewValue }.
 * The reviewer is the session's shopper: `userId`, when sent, must be theirs
 * (403 otherwise) and `userName` comes from their account, not the body.
 * 201 `{ success, message: "Review added successfully!", data: review }`.
 */
const route = apiRoute({
  POST: apiOperation({
    tag: "Reviews",
    summary: "Review a product the caller bought (one review per product)",
    access: "shopper",
    unauthorized: REVIEW_TEXT.loginRequired,
    body: reviewBodySchema,
    success: { 201: { description: "The review", schema: dataEnvelope(reviewSchemaOut) } },
    errors: {
      400: "Malformed JSON, or invalid fields (`errors` names them)",
      403: "Not bought, or an admin",
      404: "Unknown product",
      409: "Already reviewed",
    },
    handler: async ({ caller, input }) => {
      const body = input;
      const claimedUserId = body.userId === null || body.userId === "" ? undefined : body.userId;
      const user = requireOwnData(caller, claimedUserId);
      const review = await addReview(
        { id: user.id, userName: user.userName },
        { productId: body.productId, reviewValue: body.reviewValue, reviewMessage: body.reviewMessage },
      );
      return apiJson({ success: true, message: REVIEW_TEXT.added, data: review }, { status: 201 });
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
