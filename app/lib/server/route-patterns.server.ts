/**
 * URL patterns ranked and matched as React Router ranks and matches its routes, compiled once: for the HTTP
 * server's names of requests (server/observability.ts) and the JSON API's table (app/web/api-router.server.ts),
 * which match on every request and would otherwise flatten and rank their routes each time (`matchRoutes` does).
 */

interface CompiledRoute {
  pattern: string;
  score: number;
  order: number;
  regexp: RegExp;
}

/** React Router's ranking: static segments beat dynamic ones, which beat splats; index routes win ties. */
function scoreOf(pattern: string, index: boolean): number {
  const segments = pattern.split("/");
  let score = segments.length + (segments.includes("*") ? -2 : 0) + (index ? 2 : 0);
  for (const segment of segments) {
    if (segment === "*") continue;
    score += segment.startsWith(":") ? 3 : segment === "" ? 1 : 10;
  }
  return score;
}

/** React Router's path matching (case-insensitive, trailing slashes ignored, `*` for the rest). */
function compile(pattern: string): RegExp {
  const splat = pattern === "/*" || pattern.endsWith("/*");
  const head = pattern
    .replace(/\/*\*?$/, "")
    .replace(/[\\.*+^${}|()[\]]/g, "\\$&")
    .replace(/\/:[\w-]+/g, "/[^/]+");
  return new RegExp(`^${head}${splat ? (pattern === "/*" ? "(?:/.*)?$" : "(?:/.+|/*)$") : "/*$"}`, "i");
}

/** The first segment of a pattern or path, lower-cased, or null when a pattern starts with no literal. */
function firstLiteralOf(pattern: string): string | null {
  const first = pattern.split("/")[1] ?? "";
  return first === "" || first === "*" || first.startsWith(":") ? null : first.toLowerCase();
}

/**
 * A function from a URL path to the pattern (of `routes`, full patterns such as `/shop/product/:id`) that
 * React Router would answer it with, or undefined.
 */
export function rankedPatternMatcher(routes: readonly { pattern: string; index?: boolean }[]) {
  const compiled: CompiledRoute[] = routes.map(({ pattern, index }, order) => ({
    pattern,
    order,
    score: scoreOf(pattern, Boolean(index)),
    regexp: compile(pattern),
  }));
  compiled.sort((x, y) => y.score - x.score || x.order - y.order);
  // A route whose first segment is a literal can only match paths that start with it: each request
  // tries the routes of its first segment (and those starting with a parameter or a splat) only.
  const first = (route: CompiledRoute) => firstLiteralOf(route.pattern);
  const open = compiled.filter((route) => first(route) === null);
  const byFirst = new Map<string, CompiledRoute[]>();
  for (const name of new Set(compiled.map(first))) {
    if (name !== null)
      byFirst.set(
        name,
        compiled.filter((route) => [name, null].includes(first(route))),
      );
  }
  return (pathname: string): string | undefined => {
    const slash = pathname.indexOf("/", 1);
    const candidates = byFirst.get(pathname.slice(1, slash === -1 ? undefined : slash).toLowerCase()) ?? open;
    return candidates.find((route) => route.regexp.test(pathname))?.pattern;
  };
}
