import {
  createReadableStreamFromReadable,
  createRequestHandler,
  writeReadableStreamToWritable,
  type ActionFunctionArgs,
  type AppLoadContext,
  type LoaderFunctionArgs,
  type ServerBuild,
} from "@remix-run/node";
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from "express";
import {
  isBodyTooLarge,
  isDatabaseUnavailable,
  OUTAGE_MESSAGE,
  OUTAGE_RETRY_AFTER_SECONDS,
} from "../app/lib/server/errors.server";
import { documentBodyOf } from "../app/lib/server/document-body.server";
import { capBody, refuseBody } from "./request-limits";
import { createSubsetHandlers } from "./route-subsets";

/**
 * The Remix request handler with the honest statuses of ARCHITECTURE rule 10,
 * in one place for every route instead of in each loader and action:
 * - a page action given a body it cannot parse answers 415/400, never 500;
 * - a database outage answers 503 with Retry-After (the root ErrorBoundary
 *   renders the friendly page; the JSON API maps it in app/web/api.server.ts);
 * - a body cut at the cap answers 413;
 * - a page that has no action answers 405 with Allow;
 * - whatever a signed-in caller gets is `Cache-Control: private, no-store`.
 */

export const FORM_TYPES_MESSAGE =
  "This form accepts application/x-www-form-urlencoded or multipart/form-data bodies only.";
export const NO_BOUNDARY_MESSAGE = "The form could not be read: multipart/form-data needs a boundary.";
export const UNREADABLE_FORM_MESSAGE = "The form could not be read. Please send it again from the page.";

type RouteFunction<Args> = (args: Args) => unknown;

function statusResponse(status: number, message: string, headers: Record<string, string> = {}) {
  return new Response(message, {
    status,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store", ...headers },
  });
}

function outage() {
  return statusResponse(503, OUTAGE_MESSAGE, { "Retry-After": String(OUTAGE_RETRY_AFTER_SECONDS) });
}

/** 415 or 400 for a body a page action cannot read as a form; null when it can. */
export function formContentTypeProblem(request: Request): Response | null {
  const contentType = request.headers.get("Content-Type") ?? "";
  if (/^application\/x-www-form-urlencoded\s*(;|$)/i.test(contentType)) return null;
  if (/^multipart\/form-data\s*(;|$)/i.test(contentType)) {
    return /;\s*boundary=("?)[^";]+\1/i.test(contentType) ? null : statusResponse(400, NO_BOUNDARY_MESSAGE);
  }
  return statusResponse(415, FORM_TYPES_MESSAGE);
}

/** True for the TypeError that `request.formData()` throws on a malformed body. */
function isUnreadableForm(error: unknown): boolean {
  return (
    error instanceof TypeError &&
    /form ?data|multipart|boundary|content-type/i.test(error.message) &&
    !/fetch failed/i.test(error.message)
  );
}

/** Turns the failures that are not bugs into the statuses they deserve. */
function honestFailure(error: unknown): never {
  if (error instanceof Response) throw error;
  if (isDatabaseUnavailable(error)) throw outage();
  if (isBodyTooLarge(error)) throw statusResponse(413, "The request body is too large");
  throw error;
}

export function guardLoader(loader: RouteFunction<LoaderFunctionArgs>) {
  return async (args: LoaderFunctionArgs) => {
    try {
      return await loader(args);
    } catch (error) {
      honestFailure(error);
    }
  };
}

/** A page action (one that reads a form) checked for a readable body first. */
export function guardPageAction(action: RouteFunction<ActionFunctionArgs>) {
  return async (args: ActionFunctionArgs) => {
    const problem = formContentTypeProblem(args.request);
    if (problem) throw problem;
    try {
      return await action(args);
    } catch (error) {
      if (isUnreadableForm(error)) throw statusResponse(400, UNREADABLE_FORM_MESSAGE);
      honestFailure(error);
    }
  };
}

/** The build with every route's loader and action guarded (resource routes keep their own body rules). */
export function guardBuild(build: ServerBuild): ServerBuild {
  if (!build.routes) return build;
  const routes: ServerBuild["routes"] = {};
  for (const [id, route] of Object.entries(build.routes)) {
    const module = { ...route.module };
    if (module.loader) module.loader = guardLoader(module.loader);
    if (module.action) {
      const isPage = Boolean(module.default);
      module.action = isPage ? guardPageAction(module.action) : guardLoader(module.action);
    }
    routes[id] = { ...route, module };
  }
  return { ...build, routes };
}

function remixHeaders(incoming: ExpressRequest["headers"]): Headers {
  const headers = new Headers();
  for (const [key, values] of Object.entries(incoming)) {
    if (values === undefined) continue;
    for (const value of Array.isArray(values) ? values : [values]) headers.append(key, value);
  }
  return headers;
}

/** Writes Remix's answer with the headers its status and caller call for. */
async function sendResponse(req: ExpressRequest, res: ExpressResponse, response: Response) {
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [key, value] of response.headers.entries()) res.append(key, value);
  if (response.status === 503 && !res.hasHeader("Retry-After")) {
    res.setHeader("Retry-After", String(OUTAGE_RETRY_AFTER_SECONDS));
  }
  // Remix's own 405 (a page without an action) names no methods.
  if (response.status === 405 && !res.hasHeader("Allow")) res.setHeader("Allow", "GET, HEAD");
  if (isSignedIn(req, response)) res.setHeader("Cache-Control", "private, no-store");
  // A rendered document is at hand as a string: Node writes it with the headers in one call (and sets
  // its Content-Length), no web stream to read it back from.
  const document = documentBodyOf(response);
  if (document !== undefined) res.end(document);
  else if (response.body) await writeReadableStreamToWritable(response.body, res);
  else res.end();
}

function remixRequest(req: ExpressRequest, res: ExpressResponse, body: NodeJS.ReadableStream | null) {
  // As @remix-run/express's createRemixRequest, with the body read through the cap.
  const hostPort = Number.parseInt(
    req.get("X-Forwarded-Host")?.split(":")[1] ?? req.get("host")?.split(":")[1] ?? "",
    10,
  );
  const host = `${req.hostname}${Number.isSafeInteger(hostPort) ? `:${hostPort}` : ""}`;
  let controller: AbortController | null = new AbortController();
  const init: RequestInit & { duplex?: "half" } = {
    method: req.method,
    headers: remixHeaders(req.headers),
    signal: controller.signal,
  };
  if (body) {
    init.body = createReadableStreamFromReadable(body as never);
    init.duplex = "half";
  }
  res.on("finish", () => (controller = null));
  res.on("close", () => controller?.abort());
  return new Request(`${req.protocol}://${host}${req.originalUrl}`, init);
}

function isSignedIn(req: ExpressRequest, response: Response): boolean {
  if ((req.get("Cookie") ?? "").includes("__session=")) return true;
  return response.headers.getSetCookie().some((cookie) => cookie.startsWith("__session="));
}

export function remixHandler(options: {
  build: ServerBuild;
  mode: string;
  getLoadContext: (req: ExpressRequest, res: ExpressResponse) => AppLoadContext;
}) {
  // Each URL is matched against the routes it could match, not all of them (server/route-subsets.ts).
  const handlerFor = createSubsetHandlers(guardBuild(options.build), (build) =>
    createRequestHandler(build, options.mode),
  );
  return async (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    try {
      const cap = req.method === "GET" || req.method === "HEAD" ? null : capBody(req);
      // Answer 413 the moment the cap trips, not when the route gives up on its body.
      cap?.once("error", () => {
        if (!res.headersSent) refuseBody(req, res);
      });
      const request = remixRequest(req, res, cap);
      const handleRequest = handlerFor(new URL(request.url).pathname);
      const response = await handleRequest(request, options.getLoadContext(req, res));
      if (cap?.exceeded) return;
      await sendResponse(req, res, response);
    } catch (error) {
      next(error);
    }
  };
}
