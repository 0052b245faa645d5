import { mkdtempSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, logFormatFor, parseConfig } from "../../app/lib/server/config.server";

const base = {
  SESSION_SECRET: "a-test-secret-of-enough-length",
  DATA_DIR: mkdtempSync(path.join(tmpdir(), "cfg-")),
};

function problemsOf(env: Record<string, string>): string[] {
  try {
    parseConfig({ ...base, ...env });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  throw new Error(`parseConfig accepted ${JSON.stringify(env)}`);
}

describe("operations configuration", () => {
  it("keeps uploads in the local folder, JSON logs at info and /metrics off by default", () => {
    const config = parseConfig(base, false);
    expect(config.s3).toBeNull();
    expect(config.logFormat).toBe("json");
    expect(config.logLevel).toBe("info");
    expect(config.metricsToken).toBeNull();
  });

  it("chooses S3 storage when S3_BUCKET is set, with path-style endpoint, keys and public URL", () => {
    const config = parseConfig({
      ...base,
      S3_BUCKET: "shop",
      S3_ENDPOINT: "http://minio.internal:9000",
      S3_REGION: "eu-central-1",
      S3_ACCESS_KEY_ID: "key",
      S3_SECRET_ACCESS_KEY: "secret",
      S3_PUBLIC_URL: "https://cdn.example.com/uploads/",
    });
    expect(config.s3).toEqual({
      bucket: "shop",
      endpoint: "http://minio.internal:9000",
      region: "eu-central-1",
      credentials: { accessKeyId: "key", secretAccessKey: "secret" },
      publicUrl: "https://cdn.example.com/uploads",
    });
    expect(parseConfig({ ...base, S3_BUCKET: "shop" }).s3).toMatchObject({
      region: "us-east-1",
      credentials: undefined,
      endpoint: undefined,
      publicUrl: undefined,
    });
  });

  it("names the S3 variable that is missing or wrong", () => {
    expect(problemsOf({ S3_ENDPOINT: "http://minio:9000" })).toEqual([
      "S3_BUCKET: is required when any other S3_ variable is set",
    ]);
    expect(problemsOf({ S3_BUCKET: "b", S3_ACCESS_KEY_ID: "k" })).toEqual([
      "S3_SECRET_ACCESS_KEY: S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together",
    ]);
    expect(problemsOf({ S3_BUCKET: "b", S3_PUBLIC_URL: "cdn.example.com" })[0]).toMatch(/^S3_PUBLIC_URL: /);
    expect(problemsOf({ S3_BUCKET: "b", S3_ENDPOINT: "ftp://x" })[0]).toMatch(/^S3_ENDPOINT: /);
  });

  it("writes readable lines to a terminal and JSON elsewhere unless LOG_FORMAT says which", () => {
    expect(logFormatFor(undefined, true)).toBe("pretty");
    expect(logFormatFor(undefined, false)).toBe("json");
    expect(logFormatFor("json", true)).toBe("json");
    expect(logFormatFor("pretty", false)).toBe("pretty");
    // An unknown value is refused by parseConfig; the fallback logger of that refusal still picks by terminal.
    expect(logFormatFor("xml", true)).toBe("pretty");
    expect(parseConfig(base, true).logFormat).toBe("pretty");
    expect(parseConfig({ ...base, LOG_FORMAT: "" }, true).logFormat).toBe("pretty");
    expect(parseConfig({ ...base, LOG_FORMAT: "json" }, true).logFormat).toBe("json");
    expect(parseConfig({ ...base, LOG_FORMAT: "pretty" }, false).logFormat).toBe("pretty");
  });

  it("accepts LOG_FORMAT pretty and a LOG_LEVEL, and refuses others by name", () => {
    expect(parseConfig({ ...base, LOG_FORMAT: "pretty", LOG_LEVEL: "warn" })).toMatchObject({
      logFormat: "pretty",
      logLevel: "warn",
    });
    expect(problemsOf({ LOG_FORMAT: "xml" })).toEqual(['LOG_FORMAT: must be "json" or "pretty"']);
    expect(problemsOf({ LOG_LEVEL: "loud" })[0]).toMatch(/^LOG_LEVEL: /);
  });

  it("turns /metrics on only with a METRICS_TOKEN of at least 16 characters", () => {
    expect(parseConfig({ ...base, METRICS_TOKEN: "0123456789abcdef" }).metricsToken).toBe("0123456789abcdef");
    expect(problemsOf({ METRICS_TOKEN: "short" })).toEqual(["METRICS_TOKEN: must be at least 16 characters"]);
  });

  it("runs one HTTP worker per core unless WEB_CONCURRENCY says otherwise (1: no cluster)", () => {
    expect(parseConfig(base).webConcurrency).toBe(availableParallelism());
    expect(parseConfig({ ...base, WEB_CONCURRENCY: "1" }).webConcurrency).toBe(1);
    expect(parseConfig({ ...base, WEB_CONCURRENCY: "6" }).webConcurrency).toBe(6);
    expect(problemsOf({ WEB_CONCURRENCY: "0" })).toEqual(["WEB_CONCURRENCY: must be between 1 and 256"]);
    expect(problemsOf({ WEB_CONCURRENCY: "two" })).toEqual(["WEB_CONCURRENCY: must be a number"]);
  });
});
