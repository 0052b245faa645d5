// BUILD_DIR lets two builds live side by side (for example a test run next to a
// running shop); the server reads the same variable through app/lib/server/config.server.ts.
const buildDir = process.env.BUILD_DIR || "build";

/** @type {import('@remix-run/dev').AppConfig} */
export default {
  ignoredRouteFiles: ["**/.*", "**/*.test.{ts,tsx}"],
  serverModuleFormat: "esm",
  serverPlatform: "node",
  serverBuildPath: `${buildDir}/index.js`,
  assetsBuildDirectory: `${buildDir}/client`,
  publicPath: "/build/",
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_lazyRouteDiscovery: true,
    v3_singleFetch: false,
  },
};
