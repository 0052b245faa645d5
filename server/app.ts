import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import express, { type NextFunction, type Request, type Response } from "express";
import type { ServerBuild } from "react-router";
import expressStaticGzip from "express-static-gzip";
import type { AppConfig } from "../app/lib/server/config.server";
import { isAppError } from "../app/lib/server/errors.server";
import { getLogger } from "../app/lib/server/logger.server";
import {
  contentTypeOfKey,
  getStorage,
  isOriginalKey,
  isStorageKey,
  widthKeyOf,
  widthKeyParts,
} from "../app/lib/server/storage.server";
import {
  DEFAULT_IMAGE_FORMAT,
  IMAGE_FORMATS,
  MAX_REQUESTED_WIDTH,
  pickWidth,
  type ImageFormat,
} from "../app/lib/shared/images";
import { imageInfoByKey, imageInfoOfUuid } from "../app/services/images.server";
import { healthEndpoint } from "./health";
import { errorResponder, metricsEndpoint, nameRoute, requestObserver } from "./observability";
import { createRequestContext } from "../app/web/request.server";
import { declaredLengthGuard, methodGuard, pathGuard } from "./request-limits";
import { securityMiddleware } from "./security";

/**
 * Uploaded images (app/lib/server/storage.server.ts): generated names whose bytes never
 * change, so cached for a year. Served as inert documents: no MIME sniffing, and
 * a sandboxing CSP so that an SVG opened on its own can run nothing.
 */
export const UPLOADS_CSP = "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; sandbox";

function uploadsStatic(uploadDir: string) {
  return express.static(uploadDir, {
    immutable: true,
    maxAge: "1y",
    index: false,
    redirect: false,
    dotfiles: "deny",
    setHeaders: setUploadHeaders,
  });
}

const UPLOAD_CACHE_CONTROL = "public, max-age=31536000, immutable";
/**
 * An upload asked for at a width before the pipeline recorded it (the backfill
 * has not reached it yet) is answered with the original, but not for a year:
 * the same URL serves its width as soon as there is one.
 */
const PENDING_WIDTH_CACHE_CONTROL = "public, max-age=300";

function setUploadHeaders(res: Response, filePath?: string) {
  nameRoute("/uploads/:key")(res);
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("Content-Security-Policy", UPLOADS_CSP);
  res.setHeader("Cross-Origin-Resource-Policy", IMAGE_RESOURCE_POLICY);
  res.setHeader(
    "Cache-Control",
    res.locals.pendingWidth ? PENDING_WIDTH_CACHE_CONTROL : UPLOAD_CACHE_CONTROL,
  );
  // The type follows the key the shop chose (send's own table knows no AVIF).
  if (filePath) res.setHeader("Content-Type", contentTypeOfKey(path.basename(filePath)));
}

/** A query parameter given once, or "" (malformed) when it is repeated or nested. */
function singleQueryValue(value: unknown): string | undefined {
  if (typeof value === "string" || value === undefined) return value;
  return "";
}

/**
 * `/uploads/<key>?w=320&format=avif` (API.md "Product images"): the stored
 * width nearest at or above `w` (the largest when `w` is above the original),
 * WebP when no format is named; `format` alone serves the original's width in
 * that format. The request is rewritten to the width's own key, which the
 * store behind (folder or bucket) then serves like any upload. A malformed `w`
 * or an unknown format is a 400; an SVG, a BMP or an unreadable file has no
 * widths and is served as it is.
 */
function uploadWidths() {
  return (req: Request, res: Response, next: NextFunction) => {
    const key = req.path.slice(1);
    const w = singleQueryValue(req.query.w);
    const format = singleQueryValue(req.query.format);
    if ((w === undefined && format === undefined) || !isOriginalKey(key)) return next();
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    let requested: number | undefined;
    if (w !== undefined) {
      requested = /^[1-9][0-9]{0,5}$/.test(w) ? Number(w) : NaN;
      if (!(requested <= MAX_REQUESTED_WIDTH)) {
        nameRoute("/uploads/:key")(res);
        return res
          .status(400)
          .type("text/plain")
          .send(`w must be a whole number of pixels from 1 to ${MAX_REQUESTED_WIDTH}`);
      }
    }
    if (format !== undefined && !(IMAGE_FORMATS as readonly string[]).includes(format)) {
      nameRoute("/uploads/:key")(res);
      return res
        .status(400)
        .type("text/plain")
        .send(`format must be ${IMAGE_FORMATS.join(" or ")}`);
    }
    imageInfoByKey(key)
      .then((info) => {
        if (!info) {
          res.locals.pendingWidth = true;
          return next();
        }
        const width = pickWidth(info.widths, requested ?? Number.POSITIVE_INFINITY);
        if (width !== null) {
          const widthKey = widthKeyOf(
            key,
            width,
            (format as ImageFormat | undefined) ?? DEFAULT_IMAGE_FORMAT,
          );
          req.url = `/${widthKey}`;
        }
        next();
      })
      .catch((error: unknown) => sendUploadError(res, error));
  };
}

/**
 * A width asked for by its own key (as every page's srcset does) that is not stored: the width list gained it
 * after the upload was processed and the backfill (`npm run images:backfill`, also run by `db:migrate`) has
 * not reached this upload yet. The nearest width the upload has in that format is served instead, cached
 * briefly, so the picture shows rather than a 404 leaving its box empty (docs/decisions/0023). A width the
 * row says is stored, or an upload without a row, stays a 404.
 */
function widthNotYetStored() {
  return (req: Request, res: Response, next: NextFunction) => {
    const parts = widthKeyParts(req.path.slice(1));
    if (!parts || (req.method !== "GET" && req.method !== "HEAD")) return next();
    imageInfoOfUuid(parts.uuid)
      .then((info) => {
        if (!info || info.widths.includes(parts.width)) return next();
        const width = pickWidth(info.widths, parts.width);
        if (width === null) return next();
        res.locals.pendingWidth = true;
        req.url = `/${widthKeyOf(info.key, width, parts.format)}`;
        next();
      })
      .catch((error: unknown) => sendUploadError(res, error));
  };
}

function sendUploadError(res: Response, error: unknown) {
  if (isAppError(error)) {
    res.status(error.status).set(error.headers).type("text/plain").send(error.message);
  } else {
    getLogger().error({ err: error }, "Serving an upload failed");
    // Without the database the right width is unknown: an outage, and nothing cached.
    res
      .status(503)
      .set({ "Retry-After": "30", "Cache-Control": "no-store" })
      .type("text/plain")
      .send("Images are unavailable for a moment. Please try again.");
  }
}

/**
 * Images may be embedded by pages on other origins (the API answers their
 * absolute URLs to clients on CORS_ORIGINS and to apps): catalogue art and
 * uploads say `Cross-Origin-Resource-Policy: cross-origin`. Everything else
 * keeps helmet's `same-origin`.
 */
const IMAGE_RESOURCE_POLICY = "cross-origin";

/** Uploads kept in a bucket (S3_BUCKET without a public URL): streamed with the same headers. */
function uploadsFromStorage() {
  return (req: Request, res: Response, next: NextFunction) => {
    const key = req.path.slice(1);
    if ((req.method !== "GET" && req.method !== "HEAD") || !isStorageKey(key)) return next();
    getStorage()
      .read(key)
      .then((file) => {
        if (!file) return next();
        setUploadHeaders(res);
        res
          .type(file.contentType)
          .send(Buffer.from(file.data.buffer, file.data.byteOffset, file.data.byteLength));
      })
      .catch((error: unknown) => {
        if (isAppError(error)) {
          res.status(error.status).set(error.headers).type("text/plain").send(error.message);
        } else {
          getLogger().error({ err: error }, "Serving an upload failed");
          res.status(500).type("text/plain").send("Something went wrong on our side.");
        }
      });
  };
}

/**
 * The files in public/ (catalogue images, the favicon), revalidated hourly. Only
 * URLs whose first segment is one of public/'s top-level entries (read at start)
 * look on disk: a page or API request would otherwise cost an `fs.stat` first.
 */
function publicFiles(publicDir: string) {
  const entries = new Set(existsSync(publicDir) ? readdirSync(publicDir) : []);
  const nameStatic = nameRoute("(static)");
  const serve = express.static(publicDir, {
    maxAge: "1h",
    setHeaders(res, filePath) {
      nameStatic(res);
      const relative = path.relative(publicDir, filePath);
      if (relative.split(path.sep)[0] === "images") {
        res.setHeader("Cross-Origin-Resource-Policy", IMAGE_RESOURCE_POLICY);
      }
    },
  });
  return (req: Request, res: Response, next: NextFunction) => {
    const slash = req.path.indexOf("/", 1);
    const first = req.path.slice(1, slash === -1 ? undefined : slash);
    if (entries.has(first)) return serve(req, res, next);
    next();
  };
}

/**
 * The browser build, sent in the compressed form that the build wrote next to each script and stylesheet
 * (scripts/build.js): brotli when the client takes it, else gzip, else the file as it is. The list of
 * compressed files is read once at start, so a request costs no extra lookup on disk, and the response
 * carries its Content-Encoding, which the compression middleware leaves alone.
 */
function buildAssets(clientDir: string) {
  return expressStaticGzip(clientDir, {
    enableBrotli: true,
    orderPreference: ["br", "gzip"],
    serveStatic: { immutable: true, maxAge: "1y" },
  });
}

/**
 * Pages and JSON answers are compressed as they go out, anew for every request (the browser build is
 * precompressed at the best levels by the build instead). The fastest levels: on a listing page of about
 * 115 KB, brotli at quality 1 takes about 0.6 ms and gives 20.6 KB, where the package's default quality 4 takes
 * about 1.5 ms for 17.3 KB (gzip: level 1 about 1.0 ms and 20.5 KB, the default level 6 about 1.6 ms and
 * 17.2 KB); 3 KB more per page costs a shopper less than the server's milliseconds cost every shopper.
 */
const DYNAMIC_COMPRESSION = {
  level: zlib.constants.Z_BEST_SPEED,
  brotli: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } },
};

export function createApp(options: { build: ServerBuild; config: AppConfig; publicDir?: string }) {
  const { build, config } = options;
  const publicDir = options.publicDir ?? path.resolve("public");
  const app = express();
  app.disable("x-powered-by");
  // Every request gets its own scope (request id, session user), a log line and metrics.
  app.use(requestObserver({ build, logRequests: config.logRequests }));
  // Load balancers' checks skip everything below (server/health.ts).
  app.get("/healthz", healthEndpoint());
  app.set("trust proxy", config.trustProxy);
  app.use(compression(DYNAMIC_COMPRESSION));
  app.use(methodGuard);
  app.use(pathGuard);
  app.use(securityMiddleware({ appUrl: config.appUrl, corsOrigins: config.corsOrigins }));
  app.use(declaredLengthGuard);
  app.get("/metrics", metricsEndpoint(config.metricsToken));

  // The browser build's fingerprinted assets never change; everything else is revalidated hourly.
  app.use("/build", buildAssets(path.join(config.buildDir, "client")));
  app.use(publicFiles(publicDir));
  const uploads = config.s3 ? uploadsFromStorage() : uploadsStatic(config.uploadDir);
  app.use("/uploads", uploadWidths(), uploads, widthNotYetStored(), uploads);

  app.all(
    "*",
    createRequestHandler({
      build,
      mode: config.nodeEnv === "production" ? "production" : "development",
      getLoadContext: (req, res) =>
        createRequestContext({
          cspNonce: res.locals.cspNonce as string,
          clientIp: req.ip ?? req.socket.remoteAddress ?? "unknown",
          buildVersion: build.assets.version,
          requestedPath: req.originalUrl,
        }),
    }),
  );
  app.use(errorResponder());
  return app;
}
