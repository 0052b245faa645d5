import type { NextFunction, Request, Response } from "express";
import { BODY_TOO_LARGE_MESSAGE, MAX_BODY_LIMIT_BYTES } from "../app/lib/server/body-limits.server";
import { shortStatusPage } from "../app/lib/shared/status-pages";

/**
 * Bounded input (docs/architecture.md, rule 10), before the router:
 * - methods the shop does not speak (TRACE, CONNECT, PROPFIND…) answer 405 with Allow;
 * - a declared Content-Length above the largest body any route takes answers 413 at once, unread;
 * - a path longer than any route's answers 414 at once (see `pathGuard`).
 * Each route reads its body with its own, smaller bound (app/lib/server/request-body.server.ts).
 */

export const ALLOWED_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];
function wantsJson(req: Request): boolean {
  return req.path.startsWith("/api/") || req.accepts(["html", "json"]) === "json";
}

/** A short answer before the router is reached: JSON for the API, a small page for browsers. */
function sendStatus(req: Request, res: Response, status: number, message: string) {
  res.status(status);
  res.setHeader("Cache-Control", "no-store");
  if (wantsJson(req)) {
    res.json({ success: false, message });
    return;
  }
  res.type("html").send(shortStatusPage(String(status), message));
}

/** What is read and thrown away after a 413 so that the client sees the answer, at most. */
const DRAIN_LIMIT_BYTES = 64 * 1024 * 1024;
const DRAIN_TIMEOUT_MS = 10_000;

/**
 * Answers 413, then reads the rest of the body only to discard it (never into
 * memory), as Express's finalhandler does: a client still sending would
 * otherwise get a broken pipe instead of the answer (so no `Connection: close`:
 * Node would close the socket under it). A body that goes on past 64 MB or
 * 10 s gets its connection closed.
 */
export function refuseBody(req: Request, res: Response) {
  req.unpipe();
  let drained = 0;
  const timer = setTimeout(() => req.destroy(), DRAIN_TIMEOUT_MS);
  timer.unref();
  req.on("data", (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > DRAIN_LIMIT_BYTES) req.destroy();
  });
  req.once("close", () => clearTimeout(timer));
  req.resume();
  sendStatus(req, res, 413, BODY_TOO_LARGE_MESSAGE);
}

export function methodGuard(req: Request, res: Response, next: NextFunction) {
  // OPTIONS is the API's (CORS preflights, server/security.ts); the router answers it for a page before
  // any route or middleware runs, without saying which methods the page takes.
  const pageOptions = req.method === "OPTIONS" && !req.path.startsWith("/api/");
  if (ALLOWED_METHODS.includes(req.method) && !pageOptions) {
    next();
    return;
  }
  res.setHeader("Allow", pageOptions ? "GET, HEAD, POST" : ALLOWED_METHODS.join(", "));
  sendStatus(req, res, 405, `Method ${req.method} is not allowed here.`);
}

/** 413 for a declared length above the largest body any route takes, before a byte of the body is read. */
export function declaredLengthGuard(req: Request, res: Response, next: NextFunction) {
  const declared = Number(req.headers["content-length"] ?? "0");
  if (Number.isFinite(declared) && declared > MAX_BODY_LIMIT_BYTES) {
    refuseBody(req, res);
    return;
  }
  next();
}

/** Longer than any path of the shop (the longest is a product's page with its 36-character id). */
export const MAX_PATH_LENGTH = 512;
/** More segments than any route has. */
export const MAX_PATH_SEGMENTS = 16;

/**
 * A path longer or deeper than any the shop serves answers 414 (too long) or 404 (too deep) at once: no
 * route can match it, and matching it costs the router work that grows with its length.
 */
export function pathGuard(req: Request, res: Response, next: NextFunction) {
  const path = req.path;
  if (path.length > MAX_PATH_LENGTH) {
    sendStatus(req, res, 414, "The address is too long.");
    return;
  }
  let segments = 0;
  for (let index = path.indexOf("/"); index !== -1; index = path.indexOf("/", index + 1)) {
    if (++segments > MAX_PATH_SEGMENTS) {
      sendStatus(req, res, 404, "page doesn't exists");
      return;
    }
  }
  next();
}
