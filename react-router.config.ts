import type { Config } from "@react-router/dev/config";

/**
 * React Router in framework mode: every page rendered on the server, the browser build and the server build
 * written to $BUILD_DIR (default build/; a second build can live beside the first, read by the server through
 * app/lib/server/config.server.ts). The server build is `server/app.js`: `server/index.js` beside it is the
 * shop's own HTTP server (scripts/build.js), which serves it.
 */
export default {
  appDirectory: "app",
  buildDirectory: process.env.BUILD_DIR || "build",
  serverBuildFile: "app.js",
  ssr: true,
  future: {
    // The root route's middleware gives every answer its honest status and caching headers (app/web/http-middleware.server.ts).
    v8_middleware: true,
  },
} satisfies Config;
