import path from "node:path";
import { createRequestHandler } from "@remix-run/express";
import type { ServerBuild } from "@remix-run/node";
import compression from "compression";
import express, { type NextFunction, type Request, type Response } from "express";
import type { AppConfig } from "../app/lib/config.server";
import { runInRequestScope } from "../app/lib/request-scope.server";
import { securityMiddleware } from "./security";

/** One line per request: method, path, status, duration. */
function requestLog(req: Request, res: Response, next: NextFunction) {
  const started = process.hrtime.bigint();
  res.on("finish", () => {
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    console.log(`${req.method} ${req.originalUrl} ${res.statusCode} ${ms.toFixed(1)}ms`);
  });
  next();
}

/**
 * Uploaded images (app/lib/storage.server.ts): generated names whose bytes never
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
    setHeaders(res) {
      res.setHeader("X-Content-Type-Options", "nosniff");
      res.setHeader("Content-Security-Policy", UPLOADS_CSP);
      res.setHeader("Cross-Origin-Resource-Policy", IMAGE_RESOURCE_POLICY);
    },
  });
}

/**
 * Images may be embedded by pages on other origins (the API answers their
 * absolute URLs to clients on CORS_ORIGINS and to apps): catalogue art and
 * uploads say `Cross-Origin-Resource-Policy: cross-origin`. Everything else
 * keeps helmet's `same-origin`.
 */
export const IMAGE_RESOURCE_POLICY = "cross-origin";

export function createApp(options: { build: ServerBuild; config: AppConfig; publicDir?: string }) {
  const { build, config } = options;
  const publicDir = options.publicDir ?? path.resolve("public");
  const app = express();
  app.disable("x-powered-by");
  // Every request gets its own scope for values computed once per request (the session user).
  app.use((_req, _res, next) => runInRequestScope(next));
  app.set("trust proxy", config.trustProxy);
  app.use(compression());
  if (config.logRequests) app.use(requestLog);
  app.use(securityMiddleware({ appUrl: config.appUrl, corsOrigins: config.corsOrigins }));

  // Remix's fingerprinted assets never change; everything else is revalidated hourly.
  app.use("/build", express.static(path.join(config.buildDir, "client"), { immutable: true, maxAge: "1y" }));
  app.use(
    express.static(publicDir, {
      maxAge: "1h",
      setHeaders(res, filePath) {
        const relative = path.relative(publicDir, filePath);
        if (relative.split(path.sep)[0] === "images") {
          res.setHeader("Cross-Origin-Resource-Policy", IMAGE_RESOURCE_POLICY);
        }
      },
    }),
  );
  app.use("/uploads", uploadsStatic(config.uploadDir));

  app.all(
    "*",
    createRequestHandler({
      build,
      mode: config.nodeEnv === "production" ? "production" : "development",
      getLoadContext: (req, res) => ({
        cspNonce: res.locals.cspNonce as string,
        clientIp: req.ip ?? req.socket.remoteAddress ?? "unknown",
      }),
    }),
  );
  return app;
}
