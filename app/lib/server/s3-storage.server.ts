import { randomUUID } from "node:crypto";
import type { S3Client } from "@aws-sdk/client-s3";
import type { S3Config } from "./config.server";
import { AppError } from "./errors.server";
import { contentTypeOfKey, isStorageKey, UPLOADS_URL_PREFIX, type FileStorage } from "./file-storage.server";

/**
 * Uploads in an S3-compatible bucket (AWS S3, MinIO, Cloudflare R2, …), so
 * that every app instance sees every image. Objects are written with their
 * content type and a year's cache (keys never change). Without S3_PUBLIC_URL
 * the URLs stay `/uploads/<key>` and the shop streams the objects with the
 * same headers as local files (server/uploads.ts); with it the URLs point at
 * the bucket's public address (a CDN that must add nosniff and the CSP, see
 * README).
 */

const UPLOAD_CACHE_CONTROL = "public, max-age=31536000, immutable";

/** The AWS SDK is large: loaded on first use, so that a shop on the local folder never pays for it. */
const loadSdk = () => import("@aws-sdk/client-s3");

/** The client of one configuration; path-style addressing for custom endpoints (MinIO, s3rver). */
export async function createS3Client(config: S3Config): Promise<S3Client> {
  const { S3Client } = await loadSdk();
  return new S3Client({
    region: config.region,
    endpoint: config.endpoint,
    forcePathStyle: Boolean(config.endpoint),
    credentials: config.credentials,
    // S3-compatible stores do not all know the SDK's newer default checksums.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
}

function statusOf(error: unknown): number | undefined {
  return (error as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode;
}

/** A store that cannot be reached is an outage (503), not a bug of ours. */
function unavailable(error: unknown): never {
  const status = statusOf(error);
  if (status === undefined || status >= 500) {
    throw new AppError(503, "Image storage is unavailable. Please try again in a moment.", undefined, {
      "Retry-After": "30",
    });
  }
  throw error;
}

export function createS3Storage(config: S3Config, appUrl: string): FileStorage {
  let connection: Promise<{ sdk: Awaited<ReturnType<typeof loadSdk>>; client: S3Client }> | undefined;
  const s3 = () =>
    (connection ??= Promise.all([loadSdk(), createS3Client(config)]).then(([sdk, client]) => ({
      sdk,
      client,
    })));
  const { bucket, publicUrl } = config;
  const url = (key: string) => (publicUrl ? `${publicUrl}/${key}` : `${UPLOADS_URL_PREFIX}${key}`);
  const putObject = async (key: string, data: Uint8Array, contentType: string) => {
    const { sdk, client } = await s3();
    await client
      .send(
        new sdk.PutObjectCommand({
          Bucket: bucket,
          Key: key,
          Body: Buffer.from(data.buffer, data.byteOffset, data.byteLength),
          ContentType: contentType,
          CacheControl: UPLOAD_CACHE_CONTROL,
        }),
      )
      .catch(unavailable);
  };
  return {
    publicBaseUrl: publicUrl ? `${publicUrl}/` : `${appUrl.replace(/\/+$/, "")}${UPLOADS_URL_PREFIX}`,
    async put({ data, extension, contentType }) {
      if (!/^[a-z0-9]{2,5}$/.test(extension)) throw new Error(`Unsupported extension: ${extension}`);
      const key = `${randomUUID()}.${extension}`;
      await putObject(key, data, contentType);
      return { key, url: url(key) };
    },
    async write(key, { data, contentType }) {
      if (!isStorageKey(key)) throw new Error(`Not a storage key: ${key}`);
      await putObject(key, data, contentType);
    },
    url,
    keyOf(candidate) {
      // /uploads/<key> stays valid after S3_PUBLIC_URL is set: the shop still serves it.
      for (const prefix of publicUrl ? [`${publicUrl}/`, UPLOADS_URL_PREFIX] : [UPLOADS_URL_PREFIX]) {
        if (candidate.startsWith(prefix)) {
          const key = candidate.slice(prefix.length);
          return isStorageKey(key) ? key : null;
        }
      }
      return null;
    },
    async exists(key) {
      if (!isStorageKey(key)) return false;
      try {
        const { sdk, client } = await s3();
        await client.send(new sdk.HeadObjectCommand({ Bucket: bucket, Key: key }));
        return true;
      } catch (error) {
        if (statusOf(error) === 404) return false;
        return unavailable(error);
      }
    },
    async delete(key) {
      if (!isStorageKey(key)) return;
      const { sdk, client } = await s3();
      await client.send(new sdk.DeleteObjectCommand({ Bucket: bucket, Key: key })).catch((error: unknown) => {
        if (statusOf(error) !== 404) unavailable(error);
      });
    },
    async read(key) {
      if (!isStorageKey(key)) return null;
      try {
        const { sdk, client } = await s3();
        const object = await client.send(new sdk.GetObjectCommand({ Bucket: bucket, Key: key }));
        const data = await object.Body!.transformToByteArray();
        // The type comes from the key the shop chose, never from what the bucket says.
        return { data, contentType: contentTypeOfKey(key) };
      } catch (error) {
        if (statusOf(error) === 404) return null;
        return unavailable(error);
      }
    },
  };
}
