import { getLogger } from "~/lib/server/logger.server";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "react-router";
import {
  AppError,
  badRequest,
  isDatabaseUnavailable,
  serviceUnavailable,
  type FieldErrors,
} from "~/lib/server/errors.server";
import { withPublicImageUrls } from "~/lib/server/public-url.server";
import { bodyTooLarge } from "./http-middleware.server";
import { BodyTooLargeError, readBodyText } from "~/lib/server/request-body.server";
import { z } from "zod";
import { fieldErrorsOf } from "~/lib/shared/schemas";
import type { SessionUser } from "~/services/users.server";
import type { Access, ApiDeclaration, HttpMethod } from "./openapi/operation.server";
import { requireApiAccess } from "./auth.server";

/**
 * Helpers for the JSON API (app/routes/api.*.ts). Every answer is JSON with a
 * boolean `success`; errors are `{ success: false, message, errors? }`.
 * Every `image` in a body is answered as an absolute URL (public-url.server.ts):
 * clients on other origins and apps cannot resolve a path.
 */

export function apiJson(
  body: Record<string, unknown>,
  init: { status?: number; headers?: HeadersInit } = {},
) {
  return apiAnswer(apiBody(body), init);
}

/** A JSON answer's body as `apiJson` sends it, encoded: for an answer made once and sent many times. */
export function apiBody(body: Record<string, unknown>): Uint8Array<ArrayBuffer> {
  // Bytes, for the reason the document is bytes (entry.server.tsx, documentBytes).
  return utf8.encode(JSON.stringify(withPublicImageUrls(body)));
}

const utf8 = new TextEncoder();

/** The answer for a body from `apiBody` (the Response copies the bytes: they can be sent again). */
export function apiAnswer(
  body: Uint8Array<ArrayBuffer>,
  init: { status?: number; headers?: HeadersInit } = {},
) {
  const headers = new Headers(init.headers);
  headers.set("Content-Type", "application/json; charset=utf-8");
  if (!headers.has("Cache-Control")) headers.set("Cache-Control", "no-store");
  return new Response(body, { status: init.status ?? 200, headers });
}

export function apiError(
  status: number,
  message: string,
  errors?: FieldErrors,
  headers?: HeadersInit,
): Response {
  return apiJson({ success: false, message, ...(errors ? { errors } : {}) }, { status, headers });
}

/** Reads a JSON object body: 415 for another content type, 400 for malformed JSON. */
export async function readJsonObject(request: Request): Promise<Record<string, unknown>> {
  const contentType = request.headers.get("Content-Type") ?? "";
  if (!/^application\/([\w.+-]+\+)?json\b/i.test(contentType)) {
    throw new AppError(415, "Send the body as JSON (Content-Type: application/json)");
  }
  let body: unknown;
  try {
    const text = await readBodyText(request);
    body = text.trim() === "" ? {} : JSON.parse(text);
  } catch (error) {
    if (error instanceof BodyTooLargeError) throw error;
    throw new AppError(400, "The request body is not valid JSON");
  }
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    throw new AppError(400, "The request body must be a JSON object");
  }
  return body as Record<string, unknown>;
}

type Method = "GET" | "POST" | "PUT" | "DELETE";
type Handler = (args: LoaderFunctionArgs | ActionFunctionArgs) => Promise<Response>;

/** Turns anything a handler throws into a JSON answer; never an HTML page or a stack trace. */
export async function runApiHandler(handler: () => Promise<Response>): Promise<Response> {
  try {
    return await handler();
  } catch (error) {
    if (error instanceof AppError) {
      return apiError(error.status, error.message, error.fieldErrors, error.headers);
    }
    if (error instanceof Response) return error;
    if (isDatabaseUnavailable(error)) {
      const outage = serviceUnavailable(error);
      return apiError(outage.status, outage.message, undefined, outage.headers);
    }
    getLogger().error({ err: error }, "API handler failed");
    return apiError(500, "Something went wrong on our side. Please try again later.");
  }
}

type Parsed<S> = S extends z.core.$ZodType ? z.output<S> : undefined;

/**
 * What a handler is given: the route's arguments, the caller its access lets in (none for a public
 * operation), the body as its schema parsed it, and the JSON object it was parsed from.
 */
export type ApiArgs<B = undefined, A extends Access = Access> = (LoaderFunctionArgs | ActionFunctionArgs) & {
  caller: A extends "public" ? undefined : A extends "cart" ? SessionUser | undefined : SessionUser;
  body: Parsed<B>;
  input: B extends z.core.$ZodType ? Record<string, unknown> : undefined;
};

/** One operation: its declaration (app/web/openapi/operation.server.ts) and the handler that answers it. */
export interface ApiOperationOf<
  B = z.core.$ZodType | undefined,
  A extends Access = Access,
> extends ApiDeclaration {
  access: A;
  body?: B & z.core.$ZodType;
  handler: (args: ApiArgs<B, A>) => Promise<Response>;
}

/** Declares one operation of a route module, beside its handler. */
export function apiOperation<B extends z.core.$ZodType | undefined = undefined, A extends Access = Access>(
  operation: ApiOperationOf<B, A>,
): ApiOperationOf {
  return operation as unknown as ApiOperationOf;
}

/**
 * Runs an operation as it is declared: its access's guard, then its body read as JSON (415, 400) and
 * parsed with its schema (400 naming the fields, the first one's message), then its handler.
 */
async function runOperation(operation: ApiOperationOf, args: LoaderFunctionArgs | ActionFunctionArgs) {
  const caller = await requireApiAccess(args.request, operation.access, operation.unauthorized);
  let input: Record<string, unknown> | undefined;
  let body: unknown;
  if (operation.body && !operation.multipart) {
    // A clone: a handler that needs the bytes themselves (a signed webhook) can still read them.
    input = await readJsonObject(args.request.clone());
    if (operation.parsedBy === "service") return operation.handler({ ...args, caller, body, input } as never);
    const parsed = z.safeParse(operation.body, input);
    if (!parsed.success) {
      const errors = fieldErrorsOf(parsed.error);
      throw badRequest(
        operation.invalid ?? Object.values(errors).flat()[0] ?? "Invalid request body",
        errors,
      );
    }
    body = parsed.data;
  }
  return operation.handler({ ...args, caller, body, input } as ApiArgs<z.core.$ZodType>);
}

/**
 * Builds an API module's loader and action (app/web/api-router.server.ts) from its operations per method,
 * so that an unsupported method answers 405 JSON with an Allow header; the module's `operations` are what
 * the OpenAPI document describes. A module that takes files declares its larger `bodyLimit`: a declared
 * length above it is refused (413) before anything else.
 */
export function apiRoute(
  operations: Partial<Record<Method, ApiOperationOf>>,
  options: { bodyLimit?: number } = {},
) {
  const handlers: Partial<Record<Method, Handler>> = Object.fromEntries(
    Object.entries(operations).map(([method, operation]) => [
      method,
      (args: LoaderFunctionArgs | ActionFunctionArgs) => runOperation(operation, args),
    ]),
  );
  return {
    ...apiHandlers(handlers, options),
    operations: Object.entries(operations).map(([method, { handler: _handler, ...declaration }]) => ({
      method: method.toLowerCase() as HttpMethod,
      declaration,
    })),
  };
}

function apiHandlers(handlers: Partial<Record<Method, Handler>>, options: { bodyLimit?: number }) {
  const allowed = Object.keys(handlers).join(", ");
  const dispatch = (args: LoaderFunctionArgs | ActionFunctionArgs) => {
    const tooLarge = options.bodyLimit === undefined ? null : bodyTooLarge(args.request, options.bodyLimit);
    if (tooLarge) return Promise.resolve(tooLarge);
    const method = args.request.method.toUpperCase() as Method;
    const handler = handlers[method];
    if (!handler) {
      return Promise.resolve(
        apiError(405, `Method ${method} is not allowed here. Allowed: ${allowed}`, undefined, {
          Allow: allowed,
        }),
      );
    }
    return runApiHandler(() => handler(args));
  };
  return {
    loader: (args: LoaderFunctionArgs) => dispatch(args),
    action: (args: ActionFunctionArgs) => dispatch(args),
  };
}
