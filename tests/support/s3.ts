import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ListObjectsV2Command } from "@aws-sdk/client-s3";
import S3rver from "s3rver";
import type { S3Config } from "../../app/lib/server/config.server";
import { createS3Client } from "../../app/lib/server/s3-storage.server";

/**
 * A real S3-compatible server (s3rver, objects in a temporary folder) for the
 * tests of the S3 storage: the AWS SDK talks HTTP to it, nothing is mocked.
 * s3rver checks signatures with its fixed credentials S3RVER / S3RVER.
 */
export interface LocalS3 {
  config: S3Config;
  /** S3_* variables that point an app process at this server. */
  env: Record<string, string>;
  /** The keys in the bucket now. */
  keys(): Promise<string[]>;
  close(): Promise<void>;
}

export async function startLocalS3(port: number, bucket = "shop-uploads"): Promise<LocalS3> {
  const directory = mkdtempSync(path.join(tmpdir(), "shop-s3-"));
  const server = new S3rver({
    port,
    address: "127.0.0.1",
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const config: S3Config = {
    bucket,
    endpoint,
    region: "us-east-1",
    credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
    publicUrl: undefined,
  };
  const client = await createS3Client(config);
  return {
    config,
    env: {
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_REGION: "us-east-1",
      S3_ACCESS_KEY_ID: "S3RVER",
      S3_SECRET_ACCESS_KEY: "S3RVER",
    },
    async keys() {
      const listed = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
      return (listed.Contents ?? []).map((object) => object.Key ?? "");
    },
    async close() {
      client.destroy();
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
