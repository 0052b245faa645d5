import { route, type RouteConfig } from "@react-router/dev/routes";
import { flatRoutes } from "@react-router/fs-routes";

/**
 * The pages are the files in app/routes/, named by the flat-routes convention (`shop.product.$id.tsx`). The
 * JSON API's modules there (`api.*.ts`, named the same way) are not routes of their own: one splat route,
 * `routes/api.ts`, takes every /api URL and dispatches it by the API's own table
 * (app/web/api-router.server.ts), so that React Router walks only the pages for each page it renders.
 */
export default [
  ...(await flatRoutes({ ignoredRouteFiles: ["**/.*", "**/*.test.{ts,tsx}", "**/api.*"] })),
  route("api/*", "routes/api.ts"),
] satisfies RouteConfig;
