import path from "node:path";
import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";

export default defineConfig({
  // The browser build's files are served under /build/ (server/app.ts), fingerprinted and cached for a year.
  base: "/build/",
  // public/ is served by the HTTP server itself (catalogue art, the favicon), not copied into the build.
  publicDir: false,
  resolve: { alias: { "~": path.resolve("app") } },
  build: { sourcemap: false },
  plugins: [reactRouter()],
});
