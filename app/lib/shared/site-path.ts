const LOCAL_BASE = "http://local.invalid";

/**
 * `value` as the path a browser resolves it to on this site, or null when it
 * could leave the site: it must start with one "/", hold no backslash (browsers
 * read "\" as "/"), and its dot segments must not collapse into a
 * protocol-relative "//host" ("/.//evil.example" does). The login redirect and
 * the banner link both follow this rule.
 */
export function sameSitePath(value: string): string | null {
  if (!value.startsWith("/") || value.startsWith("//") || value.includes("\\")) return null;
  try {
    const url = new URL(value, LOCAL_BASE);
    if (url.origin !== LOCAL_BASE) return null;
    const path = `${url.pathname}${url.search}${url.hash}`;
    return path.startsWith("//") ? null : path;
  } catch {
    return null;
  }
}
