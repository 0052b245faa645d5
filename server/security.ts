import { randomFillSync } from "node:crypto";
import type { NextFunction, Request, Response } from "express";
import helmet from "helmet";

/**
 * HTTP hardening shared by every response: security headers with a per-request
 * CSP nonce, CORS for the configured origins, and refusal of state-changing
 * requests that come from another site (CSRF).
 */

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
const CORS_METHODS = "GET, POST, PUT, DELETE";
const CORS_HEADERS = "Content-Type, Cache-Control, Expires, Pragma";

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/**
 * Whether a request may change state. Browsers send Origin on cross-origin
 * POSTs (and Sec-Fetch-Site everywhere modern); non-browser clients send
 * neither and are let through, since they carry no ambient cookies of a victim.
 */
export function isCrossSiteWriteAllowed(input: {
  method: string;
  origin: string | undefined;
  secFetchSite: string | undefined;
  ownOrigins: string[];
  corsOrigins: string[];
}): boolean {
  if (SAFE_METHODS.has(input.method.toUpperCase())) return true;
  if (input.origin && input.origin !== "null") {
    return input.ownOrigins.includes(input.origin) || input.corsOrigins.includes(input.origin);
  }
  if (input.origin === "null") return false;
  // No Origin: trust the browser's own verdict when it gives one.
  return (
    input.secFetchSite === undefined || input.secFetchSite === "same-origin" || input.secFetchSite === "none"
  );
}

/**
 * A call of the JSON API that authenticates with `Authorization: Bearer` (an API key) and brings no cookie:
 * the key alone says who calls (app/web/auth.server.ts reads no cookie then, and answers an invalid key 401),
 * so a page on another site has nothing to borrow and the origin check does not apply. A browser cannot add
 * that header to another site's request without CORS allowing it. A cookie that comes along is something
 * ambient after all: such a call is checked as any other, so the header alone never switches the check off.
 */
export function isBearerApiCall(request: {
  path: string;
  authorization: string | undefined;
  cookie: string | undefined;
}): boolean {
  return (
    request.path.startsWith("/api/") &&
    /^Bearer\s+\S/i.test(request.authorization ?? "") &&
    (request.cookie ?? "").trim() === ""
  );
}

const NONCE_BYTES = 16;
const noncePool = Buffer.alloc(NONCE_BYTES * 256);
let nonceOffset = noncePool.length;

/**
 * A CSP nonce: 16 random bytes in base64, each nonce its own bytes. Taken from
 * a pool filled 256 nonces at a time (as Node's randomUUID does), instead of
 * asking the system for random bytes on every page request.
 */
export function nextNonce(): string {
  if (nonceOffset === noncePool.length) {
    randomFillSync(noncePool);
    nonceOffset = 0;
  }
  const nonce = noncePool.toString("base64", nonceOffset, nonceOffset + NONCE_BYTES);
  nonceOffset += NONCE_BYTES;
  return nonce;
}

export function securityMiddleware(options: { appUrl: string; corsOrigins: string[] }) {
  // Only APP_URL's origin is the shop's own: nothing the request says (its Host, its scheme) may add
  // one, or `Origin: http://evil.example` with `Host: evil.example` would pass as same-origin.
  const appOrigin = originOf(options.appUrl);
  const ownOrigins = appOrigin ? [appOrigin] : [];

  const nonce = (_req: Request, res: Response, next: NextFunction) => {
    res.locals.cspNonce = nextNonce();
    next();
  };

  const headers = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        "default-src": ["'self'"],
        "script-src": ["'self'", (_req, res) => `'nonce-${(res as Response).locals.cspNonce as string}'`],
        "style-src": ["'self'", "'unsafe-inline'"],
        "img-src": ["'self'", "data:", "blob:", "https:"],
        "font-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        // CORS_ORIGINS too: a form post (the payment simulator's Approve) may end, through
        // /checkout-return, on an external client's own return page (app/services/payment-return.server.ts).
        "form-action": [
          "'self'",
          "https://www.paypal.com",
          "https://www.sandbox.paypal.com",
          ...options.corsOrigins,
        ],
        "frame-ancestors": ["'none'"],
        "base-uri": ["'self'"],
        "object-src": ["'none'"],
      },
    },
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
    strictTransportSecurity: options.appUrl.startsWith("https://"),
  });

  const corsAndCsrf = (req: Request, res: Response, next: NextFunction) => {
    const origin = req.get("Origin");
    const isApi = req.path.startsWith("/api/");
    if (isApi && origin && options.corsOrigins.includes(origin)) {
      res.vary("Origin");
      res.setHeader("Access-Control-Allow-Origin", origin);
      res.setHeader("Access-Control-Allow-Credentials", "true");
      if (req.method === "OPTIONS") {
        res.setHeader("Access-Control-Allow-Methods", CORS_METHODS);
        res.setHeader("Access-Control-Allow-Headers", CORS_HEADERS);
        res.setHeader("Access-Control-Max-Age", "600");
        res.status(204).end();
        return;
      }
    }
    const allowed =
      isBearerApiCall({
        path: req.path,
        authorization: req.get("Authorization"),
        cookie: req.get("Cookie"),
      }) ||
      isCrossSiteWriteAllowed({
        method: req.method,
        origin,
        secFetchSite: req.get("Sec-Fetch-Site"),
        ownOrigins,
        corsOrigins: options.corsOrigins,
      });
    if (!allowed) {
      const message = "Cross-site request refused: this request did not come from the shop's own pages.";
      if (isApi || req.accepts(["json", "html"]) === "json") {
        res.status(403).json({ success: false, message });
      } else {
        res.status(403).type("text/plain").send(message);
      }
      return;
    }
    next();
  };

  return [nonce, headers, corsAndCsrf];
}
