import type { data } from "react-router";
import type { Submission, SubmissionResult } from "@conform-to/react";
import { isAppError, type AppError, type FieldErrors } from "~/lib/server/errors.server";
import { formFieldErrors } from "~/lib/shared/schemas";
import { redirectWithFlash } from "./session.server";

/**
 * The HTML actions' counterpart of the JSON API's `apiRoute`: the one place
 * where a service's refusal (an AppError) is caught on the way to a page.
 * A refusal becomes either conform's reply for the form that was sent (with
 * the error's status, so that the page renders it with or without
 * JavaScript) or a flash message on a redirect; everything else (a bug, an
 * outage, a thrown redirect) goes on to the router untouched.
 */

/** Runs `work`; an AppError it throws is answered by `refuse`, anything else is rethrown. */
export async function runOrRefuse<T, R>(
  work: () => Promise<T>,
  refuse: (error: AppError) => R,
): Promise<T | Awaited<R>> {
  let value: T;
  try {
    value = await work();
  } catch (error) {
    if (!isAppError(error)) throw error;
    return await refuse(error);
  }
  return value;
}

/** What conform's reply needs of a submission, whatever its schema. */
type Replyable = Pick<Submission<unknown, string[]>, "reply">;

interface RefusalReplyOptions {
  /** Fields whose typed values do not come back to the page (passwords). */
  hideFields?: string[];
  /**
   * The error's field errors this form shows (default: all of them). A form
   * that has no field for what the service names leaves it out, so the
   * message shows as a form error instead.
   */
  fieldErrors?: (error: AppError) => FieldErrors | undefined;
}

interface RefusalReply {
  result: SubmissionResult<string[]>;
  /** The refusal's status and headers (a 429's Retry-After), for `data(…, init)`. */
  init: { status: number; headers?: Record<string, string> };
}

/** conform's reply for a refusal: field errors onto their fields, otherwise the message as a form error. */
export function replyToRefusal(
  submission: Replyable,
  error: AppError,
  options: RefusalReplyOptions = {},
): RefusalReply {
  // The services name a list's field as the API does (`variants.2.size`); the form's input is conform's.
  const fieldErrors = formFieldErrors(
    (options.fieldErrors ?? ((refusal) => refusal.fieldErrors))(error) ?? {},
  );
  const formErrors = Object.keys(fieldErrors).length ? [] : [error.message];
  return {
    result: submission.reply({ fieldErrors, formErrors, hideFields: options.hideFields }),
    init: { status: error.status, ...(error.headers ? { headers: error.headers } : {}) },
  };
}

type SubmitOutcome<T> = { ok: true; value: T } | ({ ok: false; error: AppError } & RefusalReply);

/** Runs the service call of a conform form: its value, or the reply to its refusal. */
export function submitOrReply<T>(
  submission: Replyable,
  work: () => Promise<T>,
  options: RefusalReplyOptions = {},
): Promise<SubmitOutcome<T>> {
  return runOrRefuse<SubmitOutcome<T>, SubmitOutcome<T>>(
    async () => ({ ok: true, value: await work() }),
    (error) => ({ ok: false, error, ...replyToRefusal(submission, error, options) }),
  );
}

/** A redirect to `to` that carries the refusal's message as an error flash. */
export function redirectWithRefusal(request: Request, to: string, error: AppError): Promise<Response> {
  return redirectWithFlash(request, to, { type: "error", message: error.message });
}

/**
 * Runs `work` (which answers the request itself, usually with a redirect);
 * a refusal redirects to `to` (or where `to` says for that error) with its message.
 */
export function submitOrRedirect<T>(
  request: Request,
  to: string | ((error: AppError) => string),
  work: () => Promise<T>,
): Promise<T | Response> {
  return runOrRefuse(work, (error) =>
    redirectWithRefusal(request, typeof to === "string" ? to : to(error), error),
  );
}

/** What a page action answers with its data and a status (React Router's `data()`), typed for `useActionData`. */
export type PageData<T> = ReturnType<typeof data<T>>;
