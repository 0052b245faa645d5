/**
 * Where uploaded files live: a local folder (the default) or an S3-compatible
 * bucket (S3_BUCKET, app/lib/server/s3-storage.server.ts). Callers only see this
 * interface. Keys are names the shop generates (never a client's path).
 */
export interface FileStorage {
  /**
   * The absolute URL that every upload URL of this store starts from: the
   * bucket's public URL (S3_PUBLIC_URL) or the shop's own `<APP_URL>/uploads/`.
   * Ends with a slash.
   */
  readonly publicBaseUrl: string;
  /** Stores `data` under a new generated key; returns the key and its public URL. */
  put(input: { data: Uint8Array; extension: string; contentType: string }): Promise<StoredFile>;
  /**
   * Stores `data` under a key the shop derived itself (a width of an upload, or an upload's
   * metadata-free replacement): replaces what is there, and a reader sees the old or the new
   * bytes, never a part.
   */
  write(key: string, input: { data: Uint8Array; contentType: string }): Promise<void>;
  /** The public URL of a key: what the database keeps (a path for the local folder). */
  url(key: string): string;
  /**
   * The absolute URL that clients on other origins load (public-url.server.ts).
   * Absent: APP_URL + url(key). An S3 store with a public base URL returns it here.
   */
  publicUrl?(key: string): string;
  /** The key behind one of this store's URLs (including its publicUrl), or null for any other URL. */
  keyOf(url: string): string | null;
  exists(key: string): Promise<boolean>;
  /** Removes a key; removing a missing key is not an error. */
  delete(key: string): Promise<void>;
  /** The bytes and type of a key, or null when there is no such file (what /uploads/ serves). */
  read(key: string): Promise<StoredBytes | null>;
}

export interface StoredBytes {
  data: Uint8Array;
  contentType: string;
}

export interface StoredFile {
  key: string;
  url: string;
}

/** The URL path under which server/app.ts serves the local upload folder. */
export const UPLOADS_URL_PREFIX = "/uploads/";

const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
/** A generated key: a UUID and a short extension, nothing a client chose. */
const ORIGINAL_KEY_PATTERN = new RegExp(`^${UUID}\\.[a-z0-9]{2,5}$`);
/** One stored width of an upload: the upload's UUID, the width and the format (images.server.ts). */
const WIDTH_KEY_PATTERN = new RegExp(`^(${UUID})-w([1-9][0-9]{0,4})\\.(avif|webp)$`);

export function isStorageKey(key: string): boolean {
  return ORIGINAL_KEY_PATTERN.test(key) || WIDTH_KEY_PATTERN.test(key);
}

/** Whether a key is an upload itself (what the database refers to), not one of its widths. */
export function isOriginalKey(key: string): boolean {
  return ORIGINAL_KEY_PATTERN.test(key);
}

/**
 * The key of one width of an upload, derived from the upload's own key alone, so that every
 * instance finds the widths another one stored: `<uuid>.jpg` → `<uuid>-w320.webp`.
 */
export function widthKeyOf(originalKey: string, width: number, format: "avif" | "webp"): string {
  if (!isOriginalKey(originalKey)) throw new Error(`Not an upload key: ${originalKey}`);
  if (!Number.isInteger(width) || width < 1 || width > 99_999) throw new Error(`Not a width: ${width}`);
  return `${originalKey.slice(0, originalKey.lastIndexOf("."))}-w${width}.${format}`;
}

/** What a width's key names: the upload's UUID, the width and the format; null for any other key. */
export function widthKeyParts(key: string): { uuid: string; width: number; format: "avif" | "webp" } | null {
  const match = WIDTH_KEY_PATTERN.exec(key);
  if (!match) return null;
  return { uuid: match[1]!, width: Number(match[2]), format: match[3] as "avif" | "webp" };
}

/** The content type of a key, by the extension the shop gave it from the file's bytes. */
export function contentTypeOfKey(key: string): string {
  const extension = key.slice(key.lastIndexOf(".") + 1);
  const types: Record<string, string> = {
    jpg: "image/jpeg",
    png: "image/png",
    gif: "image/gif",
    webp: "image/webp",
    avif: "image/avif",
    svg: "image/svg+xml",
    bmp: "image/bmp",
  };
  return types[extension] ?? "application/octet-stream";
}
