import { createHash, randomUUID, timingSafeEqual } from "node:crypto";
import type { ServerBuild } from "react-router";
import type { NextFunction, Request, Response } from "express";
import { getLogger } from "../app/lib/server/logger.server";
import { observeHttpRequest, renderMetrics } from "../app/lib/server/metrics.server";
import { rankedPatternMatcher } from "../app/lib/server/route-patterns.server";
import { runInRequestScope, type RequestInfo } from "../app/lib/server/request-scope.server";

/**
 * What an operator sees of each request: a request id (X-Request-Id, taken
 * from the caller or made, echoed in the response), one JSON log line when it
 * finishes, and the Prometheus counters and latency histogram served at
 * /metrics. Routes are named by their pattern (/shop/product/:id), matched on
 * the server build's route manifest here in Express: that covers pages, data
 * requests and resource routes alike, and never puts a raw URL in a label.
 */

/** An id a proxy or client sent is kept only when it is short and plain. */
const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestIdOf(header: string | undefined): string {
  return header && REQUEST_ID_PATTERN.test(header) ? header : randomUUID();
}

/** Labels for what Express serves before the router; the locals key lets those handlers name themselves. */
export const ROUTE_LOCAL = "routePattern";
export const UNMATCHED_ROUTE = "(unmatched)";

/**
 * A function from a URL path to the pattern of the route that React Router would
 * answer it with. The manifest is compiled once (matchRoutes would flatten and
 * rank it again on every request).
 */
export function createRoutePatternMatcher(routes: ServerBuild["routes"] | undefined) {
  const entries = Object.values(routes ?? {}).filter((route) => route !== undefined);
  const byId = new Map(entries.map((route) => [route.id, route]));
  const fullPattern = (id: string | undefined): string => {
    const route = id ? byId.get(id) : undefined;
    if (!route) return "";
    const parent = fullPattern(route.parentId);
    return route.path ? `${parent}/${route.path}` : parent;
  };
  const match = rankedPatternMatcher(
    entries.map((route) => ({
      pattern: `/${fullPattern(route.id)}`.replace(/\/+/g, "/").replace(/(.)\/$/, "$1"),
      index: Boolean(route.index),
    })),
  );
  return (pathname: string): string => match(pathname) ?? UNMATCHED_ROUTE;
}

function routeOf(
  req: Request,
  res: Response,
  info: RequestInfo,
  matchRouterRoute: (pathname: string) => string,
): string {
  const named = (res.locals[ROUTE_LOCAL] as string | undefined) ?? info.routePattern;
  if (named) return named;
  if (req.path.startsWith("/build/")) return "/build/*";
  // A client navigation's data request (`/shop/listing.data`) is named by the page it loads.
  const path = req.path.endsWith(".data")
    ? req.path.slice(0, -".data".length).replace(/^\/_root$/, "/")
    : req.path;
  return matchRouterRoute(path);
}

/**
 * Opens the request scope (app/lib/server/request-scope.server.ts) with the request
 * id, echoes it, and when the response is finished counts it and (unless
 * LOG_REQUESTS=false) logs it.
 */
export function requestObserver(options: { build: ServerBuild; logRequests: boolean }) {
  const matchRouterRoute = createRoutePatternMatcher(options.build.routes);
  return (req: Request, res: Response, next: NextFunction) => {
    const started = process.hrtime.bigint();
    const info: RequestInfo = { requestId: requestIdOf(req.get("X-Request-Id")) };
    res.setHeader("X-Request-Id", info.requestId);
    res.on("finish", () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route = routeOf(req, res, info, matchRouterRoute);
      observeHttpRequest({ method: req.method, route, status: res.statusCode, seconds });
      if (!options.logRequests) return;
      getLogger().info(
        {
          type: "request",
          requestId: info.requestId,
          method: req.method,
          route,
          path: req.path,
          status: res.statusCode,
          durationMs: Math.round(seconds * 1e4) / 10,
          ...(info.userId ? { userId: info.userId } : {}),
        },
        "request finished",
      );
    });
    runInRequestScope(next, info);
  };
}

function digest(value: string) {
  return createHash("sha256").update(value).digest();
}

/**
 * GET /metrics: off (falls through to the 404 page) unless METRICS_TOKEN is
 * set, then only for `Authorization: Bearer <token>`.
 */
export function metricsEndpoint(token: string | null) {
  const expected = token ? digest(token) : null;
  return (req: Request, res: Response, next: NextFunction) => {
    if (!expected) return next();
    res.locals[ROUTE_LOCAL] = "/metrics";
    res.setHeader("Cache-Control", "no-store");
    const presented = /^Bearer\s+(.+)$/i.exec(req.get("Authorization") ?? "")?.[1]?.trim();
    if (!presented || !timingSafeEqual(digest(presented), expected)) {
      res.setHeader("WWW-Authenticate", 'Bearer realm="metrics"');
      res.status(401).type("text/plain").send("A valid bearer token is required for /metrics\n");
      return;
    }
    renderMetrics().then(
      ({ contentType, body }) => res.type(contentType).send(body),
      (error: unknown) => next(error),
    );
  };
}

/** For express.static's setHeaders: names the route of the files it serves. */
export function nameRoute(pattern: string) {
  return (res: { locals: Record<string, unknown> }) => {
    res.locals[ROUTE_LOCAL] = pattern;
  };
}

/**
 * The last error handler: whatever reached Express unhandled is logged with
 * the request id and its stack; the client gets a plain message, never the
 * error's details (a 4xx keeps its status and says what was wrong).
 */
export function errorResponder() {
  return (error: unknown, req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(error);
    const candidate = error as {
      status?: unknown;
      statusCode?: unknown;
      expose?: unknown;
      message?: unknown;
    };
    const status = Number(candidate?.status ?? candidate?.statusCode);
    const clientError = Number.isInteger(status) && status >= 400 && status < 500;
    const requestId = res.getHeader("X-Request-Id");
    if (clientError) {
      getLogger().warn({ requestId, status, message: String(candidate.message) }, "Request refused");
      const message = candidate.expose ? String(candidate.message) : "The request could not be handled";
      res.status(status).type("text/plain").send(`${message}\n`);
      return;
    }
    getLogger().error({ requestId, err: error, method: req.method, path: req.path }, "Request failed");
    res.status(500).type("text/plain").send("Something went wrong on our side. Please try again later.\n");
  };
}
