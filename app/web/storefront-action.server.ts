import { readForm } from "~/lib/server/request-body.server";
import { parseWithZod } from "@conform-to/zod/v4";
import { type ActionFunctionArgs, data } from "react-router";
import { addReview } from "~/services/reviews.server";
import { requireShopper } from "./auth.server";
import { submitOrReply } from "./form-action.server";
import { REVIEW_TEXT, reviewSchema } from "~/lib/shared/review-schema";
import type { StorefrontActionData } from "~/lib/shared/storefront-action";
import { redirectWithFlash } from "./session.server";
import { handleAlertIntent, isAlertIntent } from "./alert-actions.server";

/**
 * The one action behind every storefront page (home, listing, search and the
 * product page): "Write a review" is a small form that posts here with an
 * `intent`. Success redirects back to the same URL (filters, page and open
 * product included) with a flash message; a refused request answers 4xx with
 * the message, so the page shows it with or without JavaScript. The rules
 * themselves live in the services. ("Add to cart" posts to the cart action,
 * CART_ACTION_PATH, with a `redirectTo` that brings the shopper back here.)
 */

function backTo(request: Request): string {
  const url = new URL(request.url);
  return `${url.pathname}${url.search}`;
}

export async function storefrontAction({ request }: ActionFunctionArgs) {
  const formData = await readForm(request);
  const user = await requireShopper(request);
  const intent = formData.get("intent");
  const productId = String(formData.get("productId") ?? "");

  if (intent === "review") {
    const submission = parseWithZod(formData, { schema: reviewSchema });
    if (submission.status !== "success") {
      const messages = Object.values(submission.error ?? {}).flat();
      const message = messages[0] ?? REVIEW_TEXT.missingInformation;
      return data<StorefrontActionData>(
        { intent, productId, result: submission.reply(), toast: { type: "error", message } },
        { status: 400 },
      );
    }
    // The review form's fields were checked above: whatever the service refuses shows as the form's message.
    const outcome = await submitOrReply(
      submission,
      () => addReview({ id: user.id, userName: user.userName }, submission.value),
      { fieldErrors: () => undefined },
    );
    if (!outcome.ok) {
      return data<StorefrontActionData>(
        {
          intent,
          productId,
          result: outcome.result,
          toast: { type: "error", message: outcome.error.message },
        },
        { status: outcome.init.status },
      );
    }
    return redirectWithFlash(request, backTo(request), { type: "success", message: REVIEW_TEXT.added });
  }

  if (isAlertIntent(intent)) return handleAlertIntent(request, user, formData, backTo(request));

  return data<StorefrontActionData>(
    {
      intent: "unknown",
      toast: { type: "error", message: "This form cannot be sent here. Please reload the page." },
    },
    { status: 400 },
  );
}
