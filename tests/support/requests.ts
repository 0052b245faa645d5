import type { ActionFunctionArgs, AppLoadContext, LoaderFunctionArgs } from "@remix-run/node";
import { createUserSession } from "../../app/web/session.server";
import { assertMatchesContract } from "./contract";

/**
 * Calls Remix loaders and actions directly, the way the server would, with a
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
  context?: AppLoadContext;
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
      context: options.context ?? { clientIp: "127.0.0.1" },
    });
    if (result instanceof Response) return result;
    return new Response(JSON.stringify(result), {
      status: 200,
      headers: { "Content-Type": "application/json" },
    });
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
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
