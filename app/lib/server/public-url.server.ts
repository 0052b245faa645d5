import { getConfig } from "./config.server";
import { getStorage } from "./storage.server";

/**
 * The one place that turns a stored image reference into the URL a client on
 * another origin (or a mobile app) can load, and back.
 *
 * The database keeps one canonical form: what the storage's `url(key)` returns
 * for uploads (`/uploads/<key>` for the local folder; an S3 store with a public
 * base URL returns its absolute URL there) and `/images/...` for the
 * catalogue's own art. The pages render those paths as they are; the JSON API
 * answers `publicImageUrl(path)`. A store whose files are served from elsewhere
 * (S3_PUBLIC_URL) plugs in through `FileStorage.publicUrl` and `keyOf`.
 */

function ownOrigin(): string {
  return new URL(getConfig().appUrl).origin;
}

/** An absolute URL for an image reference: paths resolve on APP_URL, absolute URLs stay as they are. */
export function publicImageUrl(reference: string): string;
export function publicImageUrl(reference: string | null | undefined): string | null | undefined;
export function publicImageUrl(reference: string | null | undefined) {
  if (typeof reference !== "string" || reference === "") return reference;
  if (/^https?:\/\//i.test(reference)) return reference;
  if (!reference.startsWith("/") || reference.startsWith("//")) return reference;
  const storage = getStorage();
  const key = storage.publicUrl ? storage.keyOf(reference) : null;
  if (key && storage.publicUrl) return storage.publicUrl(key);
  return `${getConfig().appUrl}${reference}`;
}

/**
 * An image reference as the database keeps it: the absolute URL of an image on
 * this shop's own origin becomes its path (both name the same image). Anything
 * else is returned unchanged, for the schema to judge.
 */
export function canonicalImageReference(value: unknown): unknown {
  if (typeof value !== "string") return value;
  const text = value.trim();
  if (!/^https?:\/\//i.test(text)) return value;
  const storage = getStorage();
  const key = storage.keyOf(text);
  if (key) return storage.url(key);
  try {
    const url = new URL(text);
    if (url.origin !== ownOrigin() || url.search || url.hash) return value;
    return url.pathname;
  } catch {
    return value;
  }
}

/**
 * Every `image` field of a JSON answer, at any depth, and every `url` of an
 * `images` list (a product's gallery), as an absolute URL. The API's
 * serialiser applies it to every body, so that no route can forget one.
 * Copy on write: an object or list is copied only where something in it
 * changes (24 products of a page carry about 150 variants, none with an image).
 */
export function withPublicImageUrls<T>(value: T): T {
  if (Array.isArray(value)) return mapCopyOnWrite(value, withPublicImageUrls) as T;
  // Plain objects only: anything with its own toJSON (a Date) serialises as it is.
  if (value === null || typeof value !== "object") return value;
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return value;
  const object = value as Record<string, unknown>;
  let copy: Record<string, unknown> | null = null;
  for (const key of Object.keys(object)) {
    const item = object[key];
    const next =
      key === "image" && typeof item === "string"
        ? publicImageUrl(item)
        : key === "images" && Array.isArray(item)
          ? mapCopyOnWrite(item, withPictureUrl)
          : withPublicImageUrls(item);
    if (next !== item) {
      copy ??= { ...object };
      copy[key] = next;
    }
  }
  return (copy ?? object) as T;
}

/** `list` with `change` applied to each item: the same list when no item changed. */
function mapCopyOnWrite(list: readonly unknown[], change: (item: unknown) => unknown): unknown[] {
  let copy: unknown[] | null = null;
  for (let index = 0; index < list.length; index++) {
    const next = change(list[index]);
    if (next !== list[index]) {
      copy ??= list.slice();
      copy[index] = next;
    }
  }
  return copy ?? (list as unknown[]);
}

function withPictureUrl(picture: unknown): unknown {
  const copy = withPublicImageUrls(picture);
  if (copy === null || typeof copy !== "object" || Array.isArray(copy)) return copy;
  const url = (copy as { url?: unknown }).url;
  if (typeof url !== "string") return copy;
  const absolute = publicImageUrl(url);
  return absolute === url ? copy : { ...copy, url: absolute };
}
