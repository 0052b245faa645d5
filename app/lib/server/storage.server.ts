import { randomUUID } from "node:crypto";
import { access, mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { getConfig } from "./config.server";
import { contentTypeOfKey, isStorageKey, UPLOADS_URL_PREFIX, type FileStorage } from "./file-storage.server";
import { createS3Storage } from "./s3-storage.server";
import { processSingleton } from "./process-singleton.server";

// The interface and the key rules live in file-storage.server.ts, which both stores import.
export {
  contentTypeOfKey,
  isOriginalKey,
  isStorageKey,
  widthKeyOf,
  widthKeyParts,
  UPLOADS_URL_PREFIX,
  type FileStorage,
  type StoredBytes,
  type StoredFile,
} from "./file-storage.server";

/** Files in a local folder (UPLOAD_DIR), served at /uploads/<key>. */
export function createLocalStorage(directory: string, appUrl = "http://localhost:3000"): FileStorage {
  const fileOf = (key: string) => {
    if (!isStorageKey(key)) throw new Error(`Not a storage key: ${key}`);
    return path.join(directory, key);
  };
  return {
    publicBaseUrl: `${appUrl.replace(/\/+$/, "")}${UPLOADS_URL_PREFIX}`,
    async put({ data, extension }) {
      if (!/^[a-z0-9]{2,5}$/.test(extension)) throw new Error(`Unsupported extension: ${extension}`);
      await mkdir(directory, { recursive: true });
      const key = `${randomUUID()}.${extension}`;
      // "wx": never overwrite, even in the (theoretical) case of a repeated UUID.
      await writeFile(fileOf(key), data, { flag: "wx", mode: 0o644 });
      return { key, url: `${UPLOADS_URL_PREFIX}${key}` };
    },
    async write(key, { data }) {
      const target = fileOf(key);
      await mkdir(directory, { recursive: true });
      // Written aside, then renamed over: the static server never sends half a file.
      const partial = `${target}.${randomUUID()}.partial`;
      try {
        await writeFile(partial, data, { flag: "wx", mode: 0o644 });
        await rename(partial, target);
      } finally {
        await rm(partial, { force: true });
      }
    },
    url(key) {
      return `${UPLOADS_URL_PREFIX}${key}`;
    },
    keyOf(url) {
      if (!url.startsWith(UPLOADS_URL_PREFIX)) return null;
      const key = url.slice(UPLOADS_URL_PREFIX.length);
      return isStorageKey(key) ? key : null;
    },
    async exists(key) {
      if (!isStorageKey(key)) return false;
      try {
        await access(fileOf(key));
        return true;
      } catch {
        return false;
      }
    },
    async delete(key) {
      if (!isStorageKey(key)) return;
      await rm(fileOf(key), { force: true });
    },
    async read(key) {
      if (!isStorageKey(key)) return null;
      try {
        return { data: await readFile(fileOf(key)), contentType: contentTypeOfKey(key) };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw error;
      }
    },
  };
}

const current = () => processSingleton<{ storage?: FileStorage }>("storage", () => ({}));

/** The store of this process: the configured bucket (S3_BUCKET), else the local folder. */
export function getStorage(): FileStorage {
  const state = current();
  if (!state.storage) {
    const config = getConfig();
    state.storage = config.s3
      ? createS3Storage(config.s3, config.appUrl)
      : createLocalStorage(config.uploadDir, config.appUrl);
  }
  return state.storage;
}

/**
 * Where this shop's uploads are publicly reachable (ends with a slash): the
 * JSON API builds absolute image URLs from it.
 */
export function storagePublicBaseUrl(): string {
  return getStorage().publicBaseUrl;
}

/** For tests: use another store (or the configured one again with undefined). */
export function setStorage(storage: FileStorage | undefined): void {
  current().storage = storage;
}
