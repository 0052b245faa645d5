import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import { z } from "zod";
import { isTimeZone } from "../shared/report-period";
import { LOW_STOCK_THRESHOLD } from "../shared/variants";
import { isCountryCode } from "./regions.server";
import { processSingleton } from "./process-singleton.server";

/**
 * The one place that reads process.env. Everything else asks `getConfig()`.
 * Validation runs once at start so that a bad variable stops the shop with a
 * message that names it, instead of failing on the first request that needs it.
 */

const emptyToUndefined = (value: unknown) =>
  typeof value === "string" && value.trim() === "" ? undefined : value;

const optionalString = z.preprocess(emptyToUndefined, z.string().trim().optional());

const originList = z.preprocess(
  emptyToUndefined,
  z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (!value) return [] as string[];
      const origins: string[] = [];
      for (const part of value
        .split(",")
        .map((item) => item.trim())
        .filter(Boolean)) {
        try {
          const url = new URL(part);
          if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error("protocol");
          origins.push(url.origin);
        } catch {
          ctx.addIssue({ code: "custom", message: `"${part}" is not an http(s) origin` });
        }
      }
      return origins;
    }),
);

/** A whole number from `min` to `max`, `fallback` when unset. */
/** "true" or "false" (the parsed config turns it into a boolean), `fallback` when unset. */
function trueOrFalse(fallback: "true" | "false") {
  return z.preprocess(
    emptyToUndefined,
    z.enum(["true", "false"], { message: 'must be "true" or "false"' }).default(fallback),
  );
}

const DURATION_UNITS_MS = { s: 1000, m: 60_000, h: 3_600_000 } as const;

/** A duration written as a whole number and a unit, `s`, `m` or `h` ("90s", "1h"), in milliseconds. */
function duration(fallback: string) {
  return z.preprocess(
    emptyToUndefined,
    z
      .string()
      .trim()
      .default(fallback)
      .transform((value, ctx) => {
        const match = /^(\d{1,7})\s*([smh])$/.exec(value);
        const ms = match
          ? Number(match[1]) * DURATION_UNITS_MS[match[2] as keyof typeof DURATION_UNITS_MS]
          : 0;
        if (ms > 0) return ms;
        ctx.addIssue({
          code: "custom",
          message: 'must be a whole number above 0 with s, m or h, such as "90s" or "1h"',
        });
        return z.NEVER;
      }),
  );
}

function wholeNumber(min: number, max: number, fallback: number) {
  return z.preprocess(
    emptyToUndefined,
    z.coerce
      .number({ message: "must be a number" })
      .int("must be a whole number")
      .min(min, `must be between ${min} and ${max}`)
      .max(max, `must be between ${min} and ${max}`)
      .default(fallback),
  );
}

const envSchema = z
  .object({
    NODE_ENV: z.preprocess(
      emptyToUndefined,
      z.enum(["development", "production", "test"]).default("development"),
    ),
    PORT: z.preprocess(
      emptyToUndefined,
      z.coerce
        .number({ message: "must be a number" })
        .int("must be a whole number")
        .min(1, "must be between 1 and 65535")
        .max(65535, "must be between 1 and 65535")
        .default(3000),
    ),
    HOST: z.preprocess(emptyToUndefined, z.string().default("0.0.0.0")),
    DATABASE_URL: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .refine((value) => /^postgres(ql)?:\/\//.test(value), {
          message: "must be a postgres:// or postgresql:// URL",
        })
        .optional(),
    ),
    DATA_DIR: z.preprocess(emptyToUndefined, z.string().default(".data")),
    SESSION_SECRET: optionalString,
    APP_URL: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .url("must be an absolute URL such as https://shop.example.com")
        .refine((value) => /^https?:/.test(value), { message: "must start with http:// or https://" })
        .optional(),
    ),
    PAYPAL_CLIENT_ID: optionalString,
    PAYPAL_CLIENT_SECRET: optionalString,
    PAYPAL_ENVIRONMENT: z.preprocess(
      emptyToUndefined,
      z.enum(["sandbox", "live"], { message: 'must be "sandbox" or "live"' }).default("sandbox"),
    ),
    UPLOAD_DIR: optionalString,
    CORS_ORIGINS: originList,
    TRUST_PROXY: trueOrFalse("false"),
    PAGE_CACHE_SECONDS: wholeNumber(0, 86_400, 60),
    BUILD_DIR: z.preprocess(emptyToUndefined, z.string().default("build")),
    LOG_REQUESTS: trueOrFalse("true"),
    // Unset: chosen by where the logs go (logFormatFor).
    LOG_FORMAT: z.preprocess(
      emptyToUndefined,
      z.enum(["json", "pretty"], { message: 'must be "json" or "pretty"' }).optional(),
    ),
    LOG_LEVEL: z.preprocess(
      emptyToUndefined,
      z
        .enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"], {
          message: "must be one of fatal, error, warn, info, debug, trace, silent",
        })
        .default("info"),
    ),
    METRICS_TOKEN: z.preprocess(
      emptyToUndefined,
      z.string().trim().min(16, "must be at least 16 characters").optional(),
    ),
    S3_BUCKET: optionalString,
    S3_ENDPOINT: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .url("must be an absolute URL such as https://s3.eu-central-1.amazonaws.com")
        .refine((value) => /^https?:/.test(value), { message: "must start with http:// or https://" })
        .optional(),
    ),
    S3_REGION: z.preprocess(emptyToUndefined, z.string().trim().default("us-east-1")),
    S3_ACCESS_KEY_ID: optionalString,
    S3_SECRET_ACCESS_KEY: optionalString,
    S3_PUBLIC_URL: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .url("must be an absolute URL such as https://cdn.example.com/uploads")
        .refine((value) => /^https?:/.test(value), { message: "must start with http:// or https://" })
        .optional(),
    ),
    WEB_CONCURRENCY: wholeNumber(1, 256, availableParallelism()),
    DATABASE_POOL_MAX: wholeNumber(1, 500, 10),
    DATABASE_POOL_ACQUIRE_TIMEOUT_MS: wholeNumber(100, 120_000, 5_000),
    DATABASE_PREPARED_STATEMENTS: trueOrFalse("true"),
    PAYMENT_SIMULATOR_LATENCY_MS: wholeNumber(0, 60_000, 0),
    PAYMENT_RECONCILE_INTERVAL_SECONDS: wholeNumber(0, 86_400, 60),
    PAYMENT_RECONCILE_GRACE_SECONDS: wholeNumber(0, 86_400, 120),
    PAYMENT_APPROVAL_TTL_MINUTES: wholeNumber(1, 43_200, 180),
    REGISTER_LIMIT_PER_HOUR: z.preprocess(
      emptyToUndefined,
      z.coerce
        .number({ message: "must be a number" })
        .int("must be a whole number")
        .min(1, "must be at least 1")
        .default(10),
    ),
    SMTP_URL: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .refine((value) => /^smtps?:\/\/[^/]/.test(value), {
          message: "must be an smtp:// or smtps:// URL such as smtps://user:pass@smtp.example.com:465",
        })
        .optional(),
    ),
    MAIL_FROM: optionalString,
    MAIL_POLL_SECONDS: z.preprocess(
      emptyToUndefined,
      z.coerce
        .number({ message: "must be a number" })
        .int("must be a whole number")
        .min(1, "must be between 1 and 3600")
        .max(3600, "must be between 1 and 3600")
        .default(10),
    ),
    SHOP_TIMEZONE: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .trim()
        .refine(isTimeZone, { message: "must be an IANA time zone name such as Europe/Berlin or UTC" })
        .default("UTC"),
    ),
    LOW_STOCK_THRESHOLD: wholeNumber(1, 1_000_000, LOW_STOCK_THRESHOLD),
    RETURN_WINDOW_DAYS: wholeNumber(0, 3_650, 30),
    SHOP_COUNTRY: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .trim()
        .toUpperCase()
        .refine(isCountryCode, { message: "must be an ISO 3166-1 alpha-2 country code such as US or DE" })
        .default("US"),
    ),
    PRICES_INCLUDE_TAX: trueOrFalse("false"),
    WEBHOOK_ALLOW_HTTP: trueOrFalse("false"),
    WEBHOOK_ALLOW_PRIVATE: trueOrFalse("false"),
    PAYPAL_WEBHOOK_ID: optionalString,
    TWO_FACTOR: z.preprocess(
      emptyToUndefined,
      z.enum(["optional", "required"], { message: 'must be "optional" or "required"' }).default("optional"),
    ),
    ABANDONED_CART_AFTER: duration("1h"),
    ABANDONED_CART_SECOND_AFTER: duration("24h"),
  })
  .superRefine((env, ctx) => {
    if (Boolean(env.S3_ACCESS_KEY_ID) !== Boolean(env.S3_SECRET_ACCESS_KEY)) {
      ctx.addIssue({
        code: "custom",
        path: [env.S3_ACCESS_KEY_ID ? "S3_SECRET_ACCESS_KEY" : "S3_ACCESS_KEY_ID"],
        message: "S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together",
      });
    }
    if (!env.S3_BUCKET && (env.S3_ENDPOINT || env.S3_PUBLIC_URL || env.S3_ACCESS_KEY_ID)) {
      ctx.addIssue({
        code: "custom",
        path: ["S3_BUCKET"],
        message: "is required when any other S3_ variable is set",
      });
    }
    if (Boolean(env.PAYPAL_CLIENT_ID) !== Boolean(env.PAYPAL_CLIENT_SECRET)) {
      ctx.addIssue({
        code: "custom",
        path: [env.PAYPAL_CLIENT_ID ? "PAYPAL_CLIENT_SECRET" : "PAYPAL_CLIENT_ID"],
        message: "PAYPAL_CLIENT_ID and PAYPAL_CLIENT_SECRET must be set together",
      });
    }
    if (env.NODE_ENV === "production" && env.DATABASE_URL && !env.SESSION_SECRET) {
      ctx.addIssue({
        code: "custom",
        path: ["SESSION_SECRET"],
        message: "is required when NODE_ENV=production and DATABASE_URL is set",
      });
    }
    if (env.SMTP_URL && !env.MAIL_FROM) {
      ctx.addIssue({
        code: "custom",
        path: ["MAIL_FROM"],
        message: 'is required when SMTP_URL is set, e.g. "Shop <orders@shop.example.com>"',
      });
    }
    if (env.ABANDONED_CART_SECOND_AFTER <= env.ABANDONED_CART_AFTER) {
      ctx.addIssue({
        code: "custom",
        path: ["ABANDONED_CART_SECOND_AFTER"],
        message: "must be longer than ABANDONED_CART_AFTER",
      });
    }
    if (env.SESSION_SECRET && env.SESSION_SECRET.split(",").some((s) => s.trim().length < 16)) {
      ctx.addIssue({
        code: "custom",
        path: ["SESSION_SECRET"],
        message: "every secret in the comma-separated list must be at least 16 characters",
      });
    }
  });

export interface AppConfig {
  nodeEnv: "development" | "production" | "test";
  port: number;
  host: string;
  /** Set when an external PostgreSQL is used; undefined means the embedded one. */
  databaseUrl: string | undefined;
  dataDir: string;
  /** Newest first: the first one signs, all of them verify. */
  sessionSecrets: string[];
  appUrl: string;
  secureCookies: boolean;
  paypal: { clientId: string; clientSecret: string; environment: "sandbox" | "live" } | null;
  paypalEnvironment: "sandbox" | "live";
  uploadDir: string;
  corsOrigins: string[];
  /** Where `npm run build` wrote the server build (server/app.js beside the HTTP server) and the browser assets (client/). */
  buildDir: string;
  /** Behind a reverse proxy: take the client address from X-Forwarded-For. */
  trustProxy: boolean;
  /**
   * How long a shared cache may serve a visitor's page of the open storefront before asking again (s-maxage;
   * app/web/page-cache.server.ts). 0: no page is public.
   */
  pageCacheSeconds: number;
  logRequests: boolean;
  mail: MailConfig;
  /** Accounts one client address may register per hour (app/services/rate-limit.server.ts). */
  registerLimitPerHour: number;
  /** HTTP worker processes (node:cluster), one per core by default; 1: a single process, no cluster. */
  webConcurrency: number;
  /**
   * The database pool: at most `max` connections; a request waits `acquireTimeoutMs` for one, then 503.
   * `preparedStatements`: the hot reads go as named prepared statements (app/models/prepared-statements.server.ts).
   */
  databasePool: { max: number; acquireTimeoutMs: number; preparedStatements: boolean };
  /** A delay the payment simulator adds to create and capture, to stand in for PayPal's round trip. */
  simulatorLatencyMs: number;
  /**
   * The payment reconciler (app/services/checkout/reconcile.server.ts): how often it runs (0: never),
   * how long an order may sit unsettled before it is looked at, and how long a provider
   * order awaits the shopper's approval before the order is cancelled.
   */
  reconcile: { intervalMs: number; graceMs: number; approvalTtlMs: number };
  /** json: one JSON object per line (for machines); pretty: coloured lines for humans (LOG_FORMAT, else a terminal). */
  logFormat: "json" | "pretty";
  logLevel: "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";
  /** Bearer token that /metrics requires; null: /metrics is off. */
  metricsToken: string | null;
  /** Uploads in an S3-compatible bucket instead of uploadDir; null: the local folder. */
  s3: S3Config | null;
  /** The IANA time zone whose calendar days the reports count in (app/services/reports.server.ts). */
  shopTimeZone: string;
  /** A variant with less stock than this is on the dashboard's low-stock list. */
  lowStockThreshold: number;
  /** How many days after delivery a shopper may ask to return lines (0: returns are closed). */
  returnWindowDays: number;
  /** The shop's country (ISO 3166-1 alpha-2): an address's country when it names none. */
  shopCountry: string;
  /** Whether catalogue prices include tax (EU VAT) or tax is added to them (US sales tax). */
  pricesIncludeTax: boolean;
  /**
   * Outgoing webhooks: plain http:// endpoints allowed, private/loopback addresses allowed (development
   * and tests only); PayPal's webhook id for the verify-webhook-signature call of incoming ones.
   */
  webhooks: { allowHttp: boolean; allowPrivate: boolean; paypalWebhookId: string | null };
  /** required: admins and staff must sign in with a second factor (app/web/two-factor-gate.server.ts). */
  twoFactor: "optional" | "required";
  /**
   * Abandoned-cart mails (app/services/abandoned-carts.server.ts): a consenting owner's cart untouched for
   * `firstAfterMs` gets the first, still untouched after `secondAfterMs` the second and last.
   */
  abandonedCarts: { firstAfterMs: number; secondAfterMs: number };
}

export interface S3Config {
  bucket: string;
  /** For S3-compatible stores (MinIO, R2, …); undefined: AWS S3 of the region. */
  endpoint: string | undefined;
  region: string;
  /** Both or neither; neither: the SDK's default chain (instance role, AWS_* variables). */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
  /** Where the bucket is public (a CDN); undefined: the shop serves uploads at /uploads/. */
  publicUrl: string | undefined;
}

export interface MailConfig {
  /** nodemailer's connection URL; null writes every mail as an .eml file into `dir` instead. */
  smtpUrl: string | null;
  from: string;
  /** Where mails go as .eml files when there is no SMTP server ($DATA_DIR/mail). */
  dir: string;
  /** How often the outbox sender looks for due mails (it is also woken after each enqueue). */
  pollSeconds: number;
}

const DEFAULT_MAIL_FROM = "ECommerce Shopping <shop@localhost>";

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

function readOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, "session-secret");
  if (existsSync(file)) {
    const stored = readFileSync(file, "utf8").trim();
    if (stored.length >= 16) return stored;
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString("hex");
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

/** Every environment variable the shop reads (.env.example lists each with its default). */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(envSchema.shape);

/**
 * The log format: LOG_FORMAT when it names one; otherwise readable lines when
 * stdout is a terminal (a newcomer's `npm start`) and JSON objects when it is
 * not (a log collector, a pipe, a file).
 */
export function logFormatFor(requested: string | undefined, stdoutIsTTY: boolean): "json" | "pretty" {
  if (requested === "json" || requested === "pretty") return requested;
  return stdoutIsTTY ? "pretty" : "json";
}

/** `stdoutIsTTY` only chooses the log format when LOG_FORMAT is unset. */
export function parseConfig(
  env: Record<string, string | undefined> = process.env,
  stdoutIsTTY: boolean = process.stdout.isTTY === true,
): AppConfig {
  const result = envSchema.safeParse(env);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => {
      const name = issue.path.join(".") || "environment";
      return `${name}: ${issue.message}`;
    });
    throw new ConfigError(problems);
  }
  const parsed = result.data;
  const dataDir = path.resolve(parsed.DATA_DIR);
  const sessionSecrets = parsed.SESSION_SECRET
    ? parsed.SESSION_SECRET.split(",").map((s) => s.trim())
    : [readOrCreateSecret(dataDir)];
  const appUrl = (parsed.APP_URL ?? `http://localhost:${parsed.PORT}`).replace(/\/+$/, "");
  return {
    nodeEnv: parsed.NODE_ENV,
    port: parsed.PORT,
    host: parsed.HOST,
    databaseUrl: parsed.DATABASE_URL,
    dataDir,
    sessionSecrets,
    appUrl,
    secureCookies: appUrl.startsWith("https://"),
    paypal:
      parsed.PAYPAL_CLIENT_ID && parsed.PAYPAL_CLIENT_SECRET
        ? {
            clientId: parsed.PAYPAL_CLIENT_ID,
            clientSecret: parsed.PAYPAL_CLIENT_SECRET,
            environment: parsed.PAYPAL_ENVIRONMENT,
          }
        : null,
    paypalEnvironment: parsed.PAYPAL_ENVIRONMENT,
    uploadDir: path.resolve(parsed.UPLOAD_DIR ?? path.join(dataDir, "uploads")),
    corsOrigins: parsed.CORS_ORIGINS,
    buildDir: path.resolve(parsed.BUILD_DIR),
    trustProxy: parsed.TRUST_PROXY === "true",
    pageCacheSeconds: parsed.PAGE_CACHE_SECONDS,
    logRequests: parsed.LOG_REQUESTS === "true",
    logFormat: logFormatFor(parsed.LOG_FORMAT, stdoutIsTTY),
    logLevel: parsed.LOG_LEVEL,
    metricsToken: parsed.METRICS_TOKEN ?? null,
    s3: parsed.S3_BUCKET
      ? {
          bucket: parsed.S3_BUCKET,
          endpoint: parsed.S3_ENDPOINT,
          region: parsed.S3_REGION,
          credentials:
            parsed.S3_ACCESS_KEY_ID && parsed.S3_SECRET_ACCESS_KEY
              ? { accessKeyId: parsed.S3_ACCESS_KEY_ID, secretAccessKey: parsed.S3_SECRET_ACCESS_KEY }
              : undefined,
          publicUrl: parsed.S3_PUBLIC_URL?.replace(/\/+$/, ""),
        }
      : null,
    webConcurrency: parsed.WEB_CONCURRENCY,
    databasePool: {
      max: parsed.DATABASE_POOL_MAX,
      acquireTimeoutMs: parsed.DATABASE_POOL_ACQUIRE_TIMEOUT_MS,
      preparedStatements: parsed.DATABASE_PREPARED_STATEMENTS === "true",
    },
    simulatorLatencyMs: parsed.PAYMENT_SIMULATOR_LATENCY_MS,
    reconcile: {
      intervalMs: parsed.PAYMENT_RECONCILE_INTERVAL_SECONDS * 1000,
      graceMs: parsed.PAYMENT_RECONCILE_GRACE_SECONDS * 1000,
      approvalTtlMs: parsed.PAYMENT_APPROVAL_TTL_MINUTES * 60_000,
    },
    registerLimitPerHour: parsed.REGISTER_LIMIT_PER_HOUR,
    mail: {
      smtpUrl: parsed.SMTP_URL ?? null,
      from: parsed.MAIL_FROM ?? DEFAULT_MAIL_FROM,
      dir: path.join(dataDir, "mail"),
      pollSeconds: parsed.MAIL_POLL_SECONDS,
    },
    shopTimeZone: parsed.SHOP_TIMEZONE,
    lowStockThreshold: parsed.LOW_STOCK_THRESHOLD,
    returnWindowDays: parsed.RETURN_WINDOW_DAYS,
    shopCountry: parsed.SHOP_COUNTRY,
    pricesIncludeTax: parsed.PRICES_INCLUDE_TAX === "true",
    webhooks: {
      allowHttp: parsed.WEBHOOK_ALLOW_HTTP === "true",
      allowPrivate: parsed.WEBHOOK_ALLOW_PRIVATE === "true",
      paypalWebhookId: parsed.PAYPAL_WEBHOOK_ID ?? null,
    },
    twoFactor: parsed.TWO_FACTOR,
    abandonedCarts: {
      firstAfterMs: parsed.ABANDONED_CART_AFTER,
      secondAfterMs: parsed.ABANDONED_CART_SECOND_AFTER,
    },
  };
}

const current = () => processSingleton<{ config?: AppConfig }>("config", () => ({}));

/** The validated configuration of this process, parsed on first use. */
export function getConfig(): AppConfig {
  return (current().config ??= parseConfig());
}

/** For tests and scripts that need a configuration other than process.env's. */
export function setConfig(config: AppConfig): void {
  current().config = config;
}

/**
 * Reads `.env` from the working directory when there is one (entry points
 * only: the server and scripts). Variables already set in the environment win.
 */
export function loadDotEnv(file = ".env"): void {
  if (!existsSync(file)) return;
  process.loadEnvFile(file);
}
