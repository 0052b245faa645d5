import type { SubmissionResult } from "@conform-to/react";
import { Form } from "react-router";
import { useState } from "react";
import { REVIEW_MESSAGE_MAX_LENGTH } from "~/lib/shared/review-text";
import { useHydrated } from "~/lib/shared/use-hydrated";
import { StarPicker } from "./StarRating";

/**
 * "Write a review": a star picker made of radio inputs, a text box and
 * Submit. The server validates (its messages come back inline and as a
 * toast); with JavaScript, Submit stays disabled while the text is blank.
 * The answer is conform's SubmissionResult, read here without conform's
 * client (it validates nothing in the browser; the storefront's JavaScript
 * budget keeps it off its pages, docs/decisions/0008).
 */
export function ReviewForm({
  productId,
  formAction,
  lastResult,
}: {
  productId: string;
  formAction: string;
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const hydrated = useHydrated();
  const formId = `review-${productId}`;
  const values = lastResult?.initialValue ?? {};
  const errorOf = (name: string) => lastResult?.error?.[name]?.[0];
  const formError = errorOf("");
  const ratingError = errorOf("reviewValue");
  const messageError = errorOf("reviewMessage");
  const ids = {
    formError: `${formId}-error`,
    ratingError: `${formId}-reviewValue-error`,
    message: `${formId}-reviewMessage`,
    messageError: `${formId}-reviewMessage-error`,
  };
  const [message, setMessage] = useState(String(values.reviewMessage ?? ""));
  const ratingValue = Number(values.reviewValue);
  return (
    <Form
      method="post"
      action={formAction}
      preventScrollReset
      className="review-form"
      id={formId}
      aria-invalid={formError ? true : undefined}
      aria-describedby={formError ? ids.formError : undefined}
      noValidate
    >
      <input type="hidden" name="intent" value="review" />
      <input type="hidden" name="productId" value={productId} />
      {formError ? (
        <p className="form-error" id={ids.formError} role="alert">
          {formError}
        </p>
      ) : null}
      <StarPicker
        name="reviewValue"
        defaultValue={Number.isInteger(ratingValue) ? ratingValue : undefined}
        errorId={ids.ratingError}
        invalid={Boolean(ratingError)}
      />
      {ratingError ? (
        <p className="form-error" id={ids.ratingError}>
          {ratingError}
        </p>
      ) : null}
      <label htmlFor={ids.message} className="visually-hidden">
        Your review
      </label>
      <textarea
        id={ids.message}
        name="reviewMessage"
        aria-invalid={messageError ? true : undefined}
        aria-describedby={messageError ? ids.messageError : undefined}
        value={message}
        onChange={(event) => setMessage(event.currentTarget.value)}
        placeholder="Write a review..."
        maxLength={REVIEW_MESSAGE_MAX_LENGTH}
        rows={3}
        className="sf-textarea"
      />
      {messageError ? (
        <p className="form-error" id={ids.messageError}>
          {messageError}
        </p>
      ) : null}
      <button
        type="submit"
        className="sf-button sf-button--primary"
        disabled={hydrated && message.trim() === ""}
      >
        Submit
      </button>
    </Form>
  );
}
