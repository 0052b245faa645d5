import { reviewBodySchema, dataEnvelope, reviewSchemaOut } from "~/web/openapi/schemas.server";
import { apiJson, apiRoute, readJsonObject, apiOperation } from "~/web/api.server";
import { requireApiShopper } from "~/web/auth.server";
import { unauthorized } from "~/lib/server/errors.server";
import { REVIEW_TEXT } from "~/lib/shared/review-schema";
import { getSessionUser } from "~/web/session.server";
import { addReview } from "~/services/reviews.server";

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
    body: reviewBodySchema,
    success: { 201: { description: "The review", schema: dataEnvelope(reviewSchemaOut) } },
    errors: {
      400: "Malformed JSON, or invalid fields (`errors` names them)",
      403: "Not bought, or an admin",
      404: "Unknown product",
      409: "Already reviewed",
    },
    handler: async ({ request }) => {
      if (!(await getSessionUser(request))) throw unauthorized(REVIEW_TEXT.loginRequired);
      const body = await readJsonObject(request);
      const claimedUserId = body.userId === null || body.userId === "" ? undefined : body.userId;
      const user = await requireApiShopper(request, claimedUserId);
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
