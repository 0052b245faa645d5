import path from "node:path";
import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";

export default defineConfig(({ isSsrBuild }) => ({
  // The browser build's files are served under /build/ (server/app.ts), fingerprinted and cached for a year.
  base: "/build/",
  // public/ is served by the HTTP server itself (catalogue art, the favicon), not copied into the build.
  publicDir: false,
  resolve: { alias: { "~": path.resolve("app") } },
  build: {
    sourcemap: false,
    // Terser's output is a few per cent smaller than esbuild's, and every storefront page is held to 120 KB of
    // JavaScript (docs/decisions/0008); it costs the build a few seconds. The server's build is never sent
    // anywhere: unminified, its stack traces and CPU profiles name the shop's own functions.
    minify: isSsrBuild ? false : "terser",
    terserOptions: { compress: { passes: 2 } },
    rollupOptions: {
      onwarn(warning, warn) {
        // Resource routes (the JSON API) have nothing for the browser: their empty chunks are expected.
        if (warning.code === "EMPTY_BUNDLE") return;
        // zod's comments about its own tree-shaking, which Rollup drops.
        if (warning.code === "INVALID_ANNOTATION" && warning.id?.includes("/node_modules/zod/")) return;
        warn(warning);
      },
    },
  },
  plugins: [reactRouter()],
}));
