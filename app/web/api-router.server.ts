import { matchPath, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import { rankedPatternMatcher } from "~/lib/server/route-patterns.server";
import { noteRoutePattern } from "~/lib/server/request-scope.server";
import type { ApiDeclaration, ApiOperation, HttpMethod } from "./openapi/operation.server";

/**
 * The JSON API's own route table. Its modules are `app/routes/api.*.ts`, named like pages
 * (`api.shop.cart.$userId.ts` is `/api/shop/cart/:userId`) and built with `apiRoute`, but they are not
 * React Router routes: one splat route (`app/routes/api.ts`) takes every `/api` URL and hands it to the
 * module this table matches, ranked as React Router ranks routes (a static segment beats a parameter, a
 * parameter beats the splat; app/lib/server/route-patterns.server.ts, compiled once) and read with React
 * Router's `matchPath` for the parameters. React Router walks every route of its table several
 * times for each document it renders, so the 80 API modules out of it make every page cheaper
 * (docs/decisions/0035-the-api-outside-the-page-routes.md).
 */

export interface ApiModule {
  loader: (args: LoaderFunctionArgs) => Promise<Response> | Response;
  action: (args: ActionFunctionArgs) => Promise<Response> | Response;
  /** What `apiRoute` declares of each method (none for the not-found module). */
  operations?: { method: HttpMethod; declaration: ApiDeclaration }[];
}

/**
 * The URL pattern of an API module's file name: dots separate segments, `$name` is a parameter, a lone `$`
 * the rest of the path, and square brackets keep what they hold as it is (`openapi[.]json`). Anything else
 * the page routes' naming knows (pathless `_` segments, optional `(segments)`) has no place in the API and
 * is refused when the table is built.
 */
export function apiPatternOf(file: string): string {
  const name = /(?:^|\/)(api(?:\.[^/]*)?)\.ts$/.exec(file)?.[1];
  if (!name) throw new Error(`${file} is not an API module (app/routes/api.<url>.ts)`);
  const segments: string[] = [];
  let current = "";
  let escaped = false;
  for (const char of name) {
    if (char === "[" || char === "]") escaped = char === "[";
    else if (char === "." && !escaped) {
      segments.push(current);
      current = "";
    } else current += char;
  }
  segments.push(current);
  return `/${segments
    .map((segment) => {
      if (segment === "$") return "*";
      if (/^\$[A-Za-z][\w-]*$/.test(segment)) return `:${segment.slice(1)}`;
      if (/^[a-z0-9.-]+$/.test(segment)) return segment;
      throw new Error(`${file}: "${segment}" is not a segment an API module's name can have`);
    })
    .join("/")}`;
}

/** The path with each segment decoded, as React Router matches it (an encoded slash stays `%2F`). */
function decodedPath(pathname: string): string {
  return pathname
    .split("/")
    .map((segment) => {
      try {
        return decodeURIComponent(segment).replace(/\//g, "%2F");
      } catch {
        return segment;
      }
    })
    .join("/");
}

export interface ApiRouter {
  loader: (args: LoaderFunctionArgs) => Promise<Response> | Response;
  action: (args: ActionFunctionArgs) => Promise<Response> | Response;
  /** Every pattern of the table, as its module's file name gives it. */
  patterns: string[];
  /** The pattern that answers `pathname` (the not-found module's `/api/*` when no other does). */
  patternOf: (pathname: string) => string | undefined;
  /** Every operation the modules declare, at its path template: what the OpenAPI document describes. */
  operations: ApiOperation[];
}

/** The table of `modules` (file name → module, as `import.meta.glob` gives them) and its dispatch. */
export function createApiRouter(modules: Record<string, ApiModule>): ApiRouter {
  const table = new Map(
    Object.entries(modules).map(([file, module]) => [apiPatternOf(file), module] as const),
  );
  if (table.size !== Object.keys(modules).length) throw new Error("Two API modules have one URL pattern");
  // The not-found module (`api.$.ts`) matches every /api URL no other module does: there is always a match.
  if (!table.has("/api/*")) throw new Error("The API has no not-found module (app/routes/api.$.ts)");
  const patternOf = rankedPatternMatcher([...table.keys()].map((pattern) => ({ pattern })));
  const matchOf = (request: Request) => {
    const pathname = decodedPath(new URL(request.url).pathname);
    const pattern = patternOf(pathname) ?? "/api/*";
    noteRoutePattern(pattern);
    const params = matchPath({ path: pattern, caseSensitive: false, end: true }, pathname)?.params ?? {};
    return { module: table.get(pattern)!, params };
  };
  return {
    loader: (args) => {
      const { module, params } = matchOf(args.request);
      return module.loader({ ...args, params });
    },
    action: (args) => {
      const { module, params } = matchOf(args.request);
      return module.action({ ...args, params });
    },
    patterns: [...table.keys()],
    patternOf,
    operations: [...table].flatMap(([pattern, module]) =>
      (module.operations ?? []).map(({ method, declaration }) => ({
        ...declaration,
        method,
        path: pattern.replace(/:(\w+)/g, "{$1}"),
      })),
    ),
  };
}
