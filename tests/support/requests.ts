import type { ActionFunctionArgs, LoaderFunctionArgs } from "react-router";
import { createRequestContext } from "../../app/web/request.server";
import { createUserSession } from "../../app/web/session.server";
import { assertMatchesContract } from "./contract";

/**
 * Calls route loaders and actions directly, the way the server would, with a
 * fresh Request each time.
 */
export const BASE_URL = "http://localhost:3000";

type RouteFunction = (
  args: LoaderFunctionArgs | ActionFunctionArgs,
) => Promise<Response | unknown> | Response | unknown;

export interface CallOptions {
  method?: string;
  json?: unknown;
  form?: Record<string, string>;
  body?: string;
  headers?: Record<string, string>;
  cookie?: string | null;
  params?: Record<string, string>;
  /** What the HTTP server would know of the caller (its address); 127.0.0.1 by default. */
  context?: { clientIp?: string };
}

export function buildRequest(pathAndQuery: string, options: CallOptions = {}): Request {
  const headers = new Headers(options.headers);
  if (options.cookie) headers.set("Cookie", options.cookie);
  let body: string | undefined = options.body;
  if (options.json !== undefined) {
    headers.set("Content-Type", "application/json");
    body = JSON.stringify(options.json);
  } else if (options.form) {
    headers.set("Content-Type", "application/x-www-form-urlencoded");
    body = new URLSearchParams(options.form).toString();
  }
  const method = options.method ?? (body !== undefined ? "POST" : "GET");
  return new Request(`${BASE_URL}${pathAndQuery}`, { method, headers, body });
}

/**
 * Runs a route function and returns its Response, whether returned or thrown.
 * A JSON API answer is checked against the OpenAPI document (contract.ts).
 */
export async function callRoute(fn: RouteFunction, pathAndQuery: string, options: CallOptions = {}) {
  const request = buildRequest(pathAndQuery, options);
  const response = await responseOf(fn, request, options);
  await assertMatchesContract(request, response);
  return response;
}

async function responseOf(fn: RouteFunction, request: Request, options: CallOptions): Promise<Response> {
  try {
    const result = await fn({
      request,
      params: options.params ?? {},
      url: new URL(request.url),
      pattern: "",
      context: testRequestContext(options.context?.clientIp),
    });
    return responseOfResult(result);
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    if (isDataResult(thrown)) return responseOfResult(thrown);
    throw thrown;
  }
}

/** The router context the HTTP server gives a request from 127.0.0.1. */
export function testRequestContext(clientIp = "127.0.0.1") {
  return createRequestContext({ cspNonce: "", clientIp });
}

/** What React Router's `data(value, init)` returns: the value with the status and headers to answer it with. */
function isDataResult(result: unknown): result is { data: unknown; init: ResponseInit | null } {
  return typeof result === "object" && result !== null && "data" in result && "init" in result;
}

/** A loader's or an action's result as the Response the router answers with: JSON for data, as it is for a Response. */
export function responseOfResult(result: unknown): Response {
  if (result instanceof Response) return result;
  if (isDataResult(result)) {
    const headers = new Headers(result.init?.headers);
    headers.set("Content-Type", "application/json");
    return new Response(JSON.stringify(result.data), { status: result.init?.status ?? 200, headers });
  }
  return new Response(JSON.stringify(result), {
    status: 200,
    headers: { "Content-Type": "application/json" },
  });
}

/** The `name=value` pairs of a response's Set-Cookie headers, as a Cookie header. */
export function cookieFrom(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
}

/** A Cookie header that signs `userId` in. */
export async function sessionCookieFor(userId: string): Promise<string> {
  const setCookie = await createUserSession(userId);
  return setCookie.split(";")[0] ?? "";
}
