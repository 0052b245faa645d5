import { Transform, type TransformCallback } from "node:stream";
import type { NextFunction, Request, Response } from "express";
import { BODY_TOO_LARGE_NAME } from "../app/lib/server/errors.server";
import { MAX_UPLOAD_BYTES } from "../app/lib/shared/uploads";
import { MAX_IMPORT_BYTES } from "../app/lib/shared/catalogue-csv";
import { MAX_PRODUCT_IMAGES } from "../app/lib/shared/product";

/**
 * Bounded input (docs/architecture.md, rule 10), before anything reads a body:
 * - methods the shop does not speak (TRACE, CONNECT, PROPFIND…) answer 405 with Allow;
 * - a declared Content-Length above the cap answers 413 at once, unread;
 * - a body without a length (chunked) is counted while it streams and cut at
 *   the cap (see `capBody`), so that memory never holds more than the cap.
 */

export const BODY_LIMIT_BYTES = 1024 * 1024;
/** One image of at most 5 MB plus the form's text fields and multipart framing. */
export const UPLOAD_BODY_LIMIT_BYTES = MAX_UPLOAD_BYTES + 512 * 1024;
/** Pages and API routes that take a multipart upload (app/services/uploads.server.ts). */
const UPLOAD_PATHS = new Set(["/admin/dashboard", "/api/admin/products/upload-image"]);

/** A product's pictures chosen at once in the admin form without JavaScript: up to eight images. */
const PICTURES_BODY_LIMIT_BYTES = MAX_PRODUCT_IMAGES * MAX_UPLOAD_BYTES + 512 * 1024;
const PICTURES_PATHS = new Set(["/admin/products"]);

/** One catalogue CSV file of at most 10 MB plus the multipart framing. */
const IMPORT_BODY_LIMIT_BYTES = MAX_IMPORT_BYTES + 512 * 1024;
/** Pages and API routes that take the catalogue's CSV file (app/services/catalogue-csv.server.ts). */
const IMPORT_PATHS = new Set(["/admin/products/import", "/api/admin/products/import"]);

const ALLOWED_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];
const BODY_TOO_LARGE_MESSAGE = "The request body is too large";

export function bodyLimitFor(req: Pick<Request, "path" | "headers">): number {
  const multipart = /^multipart\/form-data/i.test(req.headers["content-type"] ?? "");
  const path = req.path.replace(/\/+$/, "") || "/";
  if (!multipart) return BODY_LIMIT_BYTES;
  if (IMPORT_PATHS.has(path)) return IMPORT_BODY_LIMIT_BYTES;
  if (PICTURES_PATHS.has(path)) return PICTURES_BODY_LIMIT_BYTES;
  return UPLOAD_PATHS.has(path) ? UPLOAD_BODY_LIMIT_BYTES : BODY_LIMIT_BYTES;
}

function wantsJson(req: Request): boolean {
  return req.path.startsWith("/api/") || req.accepts(["html", "json"]) === "json";
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** A short answer before Remix is reached: JSON for the API, a small page for browsers. */
function sendStatus(req: Request, res: Response, status: number, message: string) {
  res.status(status);
  res.setHeader("Cache-Control", "no-store");
  if (wantsJson(req)) {
    res.json({ success: false, message });
    return;
  }
  res
    .type("html")
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${status} · ECommerce Shopping</title>` +
        `<meta name="viewport" content="width=device-width, initial-scale=1"></head>` +
        `<body><main><h1>${status}</h1><p>${escapeHtml(message)}</p><a href="/">Go to the start page</a></main></body></html>`,
    );
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
  if (ALLOWED_METHODS.includes(req.method)) {
    next();
    return;
  }
  res.setHeader("Allow", ALLOWED_METHODS.join(", "));
  sendStatus(req, res, 405, `Method ${req.method} is not allowed here.`);
}

/** 413 for a declared length above the cap, before a byte of the body is read. */
export function declaredLengthGuard(req: Request, res: Response, next: NextFunction) {
  const declared = Number(req.headers["content-length"] ?? "0");
  if (Number.isFinite(declared) && declared > bodyLimitFor(req)) {
    refuseBody(req, res);
    return;
  }
  next();
}

/** A pass-through that fails once more than `limit` bytes went through it. */
class BodyCap extends Transform {
  exceeded = false;
  private seen = 0;

  constructor(private readonly limit: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
    this.seen += chunk.length;
    if (this.seen > this.limit) {
      this.exceeded = true;
      const error = new Error(BODY_TOO_LARGE_MESSAGE);
      error.name = BODY_TOO_LARGE_NAME;
      callback(error);
      return;
    }
    callback(null, chunk);
  }
}

/** The request body as a stream cut at the cap of this request. */
export function capBody(req: Request): BodyCap {
  const cap = new BodyCap(bodyLimitFor(req));
  req.pipe(cap);
  cap.on("error", () => req.unpipe(cap));
  return cap;
}
