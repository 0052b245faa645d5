import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { ServerBuild } from "react-router";
import { parseConfig } from "../../app/lib/server/config.server";
import * as api from "../../app/routes/api";
import { handleError } from "../../app/entry.server";
import * as root from "../../app/root";
import * as authLogin from "../../app/routes/auth.login";
import * as authRegister from "../../app/routes/auth.register";
import * as shopLayout from "../../app/routes/shop";
import * as shopCart from "../../app/routes/shop.cart";
import * as shopHome from "../../app/routes/shop.home";
import * as shopListing from "../../app/routes/shop.listing";
import * as shopProduct from "../../app/routes/shop.product.$id";
import * as shopSearch from "../../app/routes/shop.search";
import * as unauthPage from "../../app/routes/unauth-page";
import { createApp } from "../../server/app";

/**
 * The real HTTP server (server/app.ts) in front of a server build made of the
 * real route modules below and the root's middleware. Only the document
 * render is a stand-in: it answers the status and headers the router decided,
 * with no markup.
 */

type RouteModule = NonNullable<ServerBuild["routes"][string]>["module"];

function route(id: string, pathPart: string, module: unknown, parentId = "root") {
  return { id, parentId, path: pathPart, module: module as RouteModule };
}

function testBuild(): ServerBuild {
  const routes = [
    route("routes/auth.login", "auth/login", authLogin),
    route("routes/auth.register", "auth/register", authRegister),
    route("routes/shop", "shop", shopLayout),
    route("routes/shop.home", "home", shopHome, "routes/shop"),
    route("routes/shop.cart", "cart", shopCart, "routes/shop"),
    route("routes/shop.listing", "listing", shopListing, "routes/shop"),
    route("routes/shop.product.$id", "product/:id", shopProduct, "routes/shop"),
    route("routes/shop.search", "search", shopSearch, "routes/shop"),
    route("routes/unauth-page", "unauth-page", unauthPage),
    // The whole JSON API, as the shop's route table has it: one splat route and the API's own table.
    route("routes/api", "api/*", api),
  ];
  return {
    mode: "production",
    entry: {
      module: {
        default: (_request: Request, status: number, headers: Headers) =>
          new Response("<!doctype html><title>test</title>", { status, headers }),
        handleError,
      },
    },
    routes: {
      root: {
        id: "root",
        path: "",
        module: { default: () => null, middleware: root.middleware } as RouteModule,
      },
      ...Object.fromEntries(routes.map((entry) => [entry.id, entry])),
    },
    assets: { entry: { module: "", imports: [] }, routes: {}, url: "", version: "test" },
    publicPath: "/build/",
    assetsBuildDirectory: "public/build",
    future: { v8_middleware: true },
    isSpaMode: false,
    ssr: true,
    prerender: [],
    basename: "/",
    routeDiscovery: { mode: "lazy", manifestPath: "/__manifest" },
  } as unknown as ServerBuild;
}

/** The app on a free port; `env` adds settings to the configuration (e.g. BUILD_DIR for the real assets). */
export async function startTestServer(
  env: Record<string, string> = {},
): Promise<{ base: string; port: number; close: () => Promise<void> }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "shop-http-"));
  const config = parseConfig({
    DATA_DIR: dataDir,
    SESSION_SECRET: process.env.SESSION_SECRET,
    LOG_REQUESTS: "false",
    NODE_ENV: "production",
    ...env,
  });
  const app = createApp({ build: testBuild(), config, publicDir: path.join(dataDir, "public") });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    base: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  /** The body as it came, for answers that are not text (a compressed file). */
  bytes: Buffer;
}

/**
 * One request with node:http, so that any method, any header and a streamed
 * body of any size can be sent. `body` as an async iterable streams chunked.
 * A server that answers before the whole body is sent may close the socket:
 * the answer it gave is still returned.
 */
export function send(
  port: number,
  options: {
    method?: string;
    path: string;
    headers?: Record<string, string | number>;
    body?: string | Buffer | AsyncIterable<Buffer>;
  },
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = httpRequest(
      {
        host: "127.0.0.1",
        port,
        method: options.method ?? "GET",
        path: options.path,
        headers: options.headers,
      },
      (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const received = Buffer.concat(chunks);
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: received.toString(),
            bytes: received,
          });
        });
        res.on("error", reject);
      },
    );
    req.on("error", (error) => {
      if (!answered) reject(error);
    });
    const body = options.body;
    if (body === undefined || typeof body === "string" || Buffer.isBuffer(body)) {
      req.end(body);
      return;
    }
    void (async () => {
      try {
        for await (const chunk of body) {
          if (answered || req.destroyed) break;
          if (!req.write(chunk)) await new Promise((resume) => req.once("drain", resume));
        }
        req.end();
      } catch {
        // The server closed the connection after answering.
      }
    })();
  });
}

/** `total` bytes in chunks of 64 KB, made from one buffer so that the sender holds almost nothing. */
export async function* bytes(total: number, fill = "a"): AsyncIterable<Buffer> {
  const chunk = Buffer.alloc(64 * 1024, fill);
  for (let sent = 0; sent < total; sent += chunk.length) {
    yield total - sent >= chunk.length ? chunk : chunk.subarray(0, total - sent);
  }
}
