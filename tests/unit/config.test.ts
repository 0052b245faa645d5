import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CONFIG_VARIABLES, ConfigError, parseConfig } from "../../app/lib/server/config.server";

const SECRET = "a-test-secret-of-enough-length";

const tempDirs: string[] = [];
function tempDataDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "shop-config-"));
  tempDirs.push(dir);
  return dir;
}

afterEach(() => {
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** The ConfigError that parsing `env` throws (fails the test when it does not throw one). */
function configErrorOf(env: Record<string, string | undefined>): ConfigError {
  try {
    parseConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error(`parseConfig accepted ${JSON.stringify(env)}`);
}

describe(".env.example", () => {
  // NAME=value lines, commented out or not.
  const example = new Map(
    [...readFileSync(".env.example", "utf8").matchAll(/^#?\s*([A-Z][A-Z0-9_]*)=(.*)$/gm)].map(
      (match) => [match[1]!, match[2]!] as const,
    ),
  );

  it("lists every variable the shop reads", () => {
    expect(CONFIG_VARIABLES.filter((name) => !example.has(name))).toEqual([]);
  });

  it("gives each its default: the file as it stands configures what an empty environment does", () => {
    const dataDir = tempDataDir();
    const fromExample = Object.fromEntries(example);
    expect(parseConfig({ ...fromExample, SESSION_SECRET: SECRET, DATA_DIR: dataDir })).toEqual(
      parseConfig({ SESSION_SECRET: SECRET, DATA_DIR: dataDir }),
    );
  });
});

describe("parseConfig defaults", () => {
  it("uses port 3000, the .data folder resolved against the working directory, and sandbox PayPal", () => {
    const config = parseConfig({ SESSION_SECRET: SECRET });
    expect(config.port).toBe(3000);
    expect(config.host).toBe("0.0.0.0");
    expect(config.nodeEnv).toBe("development");
    expect(config.dataDir).toBe(path.resolve(".data"));
    expect(path.isAbsolute(config.dataDir)).toBe(true);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.paypal).toBeNull();
    expect(config.paypalEnvironment).toBe("sandbox");
    expect(config.corsOrigins).toEqual([]);
    expect(config.trustProxy).toBe(false);
    expect(config.logRequests).toBe(true);
  });

  it("defaults APP_URL to http://localhost:<PORT>", () => {
    expect(parseConfig({ SESSION_SECRET: SECRET }).appUrl).toBe("http://localhost:3000");
    expect(parseConfig({ SESSION_SECRET: SECRET, PORT: "4123" }).appUrl).toBe("http://localhost:4123");
  });

  it("puts the upload folder under the data folder unless UPLOAD_DIR is set", () => {
    const dataDir = tempDataDir();
    expect(parseConfig({ SESSION_SECRET: SECRET, DATA_DIR: dataDir }).uploadDir).toBe(
      path.join(dataDir, "uploads"),
    );
    const uploadDir = path.join(dataDir, "elsewhere");
    expect(parseConfig({ SESSION_SECRET: SECRET, UPLOAD_DIR: uploadDir }).uploadDir).toBe(uploadDir);
  });

  it("treats empty and blank variables as unset", () => {
    const config = parseConfig({ SESSION_SECRET: SECRET, PORT: "", APP_URL: "  ", PAYPAL_ENVIRONMENT: "" });
    expect(config.port).toBe(3000);
    expect(config.appUrl).toBe("http://localhost:3000");
    expect(config.paypalEnvironment).toBe("sandbox");
  });

  it("strips trailing slashes from APP_URL", () => {
    expect(parseConfig({ SESSION_SECRET: SECRET, APP_URL: "https://shop.example.com/" }).appUrl).toBe(
      "https://shop.example.com",
    );
  });
});

describe("parseConfig refuses invalid values with a message that names the variable", () => {
  it.each(["abc", "0", "65536", "3000.5", "-1"])("PORT=%s", (value) => {
    const error = configErrorOf({ SESSION_SECRET: SECRET, PORT: value });
    expect(error.message).toContain("PORT");
    expect(error.problems.some((problem) => problem.startsWith("PORT:"))).toBe(true);
  });

  it.each(["mysql://localhost/shop", "localhost:5432/shop", "not a url"])("DATABASE_URL=%s", (value) => {
    const error = configErrorOf({ SESSION_SECRET: SECRET, DATABASE_URL: value });
    expect(error.message).toContain("DATABASE_URL");
  });

  it.each(["shop.example.com", "ftp://shop.example.com", "javascript:alert(1)"])("APP_URL=%s", (value) => {
    const error = configErrorOf({ SESSION_SECRET: SECRET, APP_URL: value });
    expect(error.message).toContain("APP_URL");
  });

  it("PAYPAL_ENVIRONMENT other than sandbox or live", () => {
    const error = configErrorOf({ SESSION_SECRET: SECRET, PAYPAL_ENVIRONMENT: "production" });
    expect(error.message).toContain("PAYPAL_ENVIRONMENT");
  });

  it.each(["not-an-origin", "ftp://files.example.com", "https://ok.example.com, mailto:x@example.com"])(
    "CORS_ORIGINS=%s",
    (value) => {
      const error = configErrorOf({ SESSION_SECRET: SECRET, CORS_ORIGINS: value });
      expect(error.message).toContain("CORS_ORIGINS");
    },
  );

  it("lists every bad variable at once", () => {
    const error = configErrorOf({ SESSION_SECRET: SECRET, PORT: "x", APP_URL: "nope" });
    const variables = new Set(error.problems.map((problem) => problem.split(":")[0]));
    expect(variables).toEqual(new Set(["PORT", "APP_URL"]));
  });
});

describe("parseConfig abandoned-cart delays", () => {
  it("defaults to 1h and 24h and reads durations in s, m or h", () => {
    expect(parseConfig({ SESSION_SECRET: SECRET }).abandonedCarts).toEqual({
      firstAfterMs: 3_600_000,
      secondAfterMs: 86_400_000,
    });
    const config = parseConfig({
      SESSION_SECRET: SECRET,
      ABANDONED_CART_AFTER: "90s",
      ABANDONED_CART_SECOND_AFTER: "45m",
    });
    expect(config.abandonedCarts).toEqual({ firstAfterMs: 90_000, secondAfterMs: 2_700_000 });
  });

  it.each(["1d", "0s", "-5m", "1.5h", "soon", "60"])(
    "refuses ABANDONED_CART_AFTER=%s, naming it",
    (value) => {
      const error = configErrorOf({ SESSION_SECRET: SECRET, ABANDONED_CART_AFTER: value });
      expect(error.problems.some((problem) => problem.startsWith("ABANDONED_CART_AFTER:"))).toBe(true);
    },
  );

  it("refuses a second mail that would come no later than the first", () => {
    const error = configErrorOf({
      SESSION_SECRET: SECRET,
      ABANDONED_CART_AFTER: "2h",
      ABANDONED_CART_SECOND_AFTER: "120m",
    });
    expect(error.problems).toEqual(["ABANDONED_CART_SECOND_AFTER: must be longer than ABANDONED_CART_AFTER"]);
  });
});

describe("parseConfig PayPal credentials", () => {
  it("refuses a client id without a secret, naming the missing secret", () => {
    const error = configErrorOf({ SESSION_SECRET: SECRET, PAYPAL_CLIENT_ID: "client-id" });
    expect(error.message).toContain("PAYPAL_CLIENT_SECRET");
  });

  it("refuses a secret without a client id, naming the missing id", () => {
    const error = configErrorOf({ SESSION_SECRET: SECRET, PAYPAL_CLIENT_SECRET: "secret" });
    expect(error.message).toContain("PAYPAL_CLIENT_ID");
  });

  it("accepts both together and carries the environment", () => {
    const config = parseConfig({
      SESSION_SECRET: SECRET,
      PAYPAL_CLIENT_ID: "client-id",
      PAYPAL_CLIENT_SECRET: "secret",
      PAYPAL_ENVIRONMENT: "live",
    });
    expect(config.paypal).toEqual({ clientId: "client-id", clientSecret: "secret", environment: "live" });
  });
});

describe("parseConfig session secrets", () => {
  it("requires SESSION_SECRET when NODE_ENV=production and DATABASE_URL is set", () => {
    const error = configErrorOf({
      NODE_ENV: "production",
      DATABASE_URL: "postgres://shop@db.example.com/shop",
      DATA_DIR: tempDataDir(),
    });
    expect(error.message).toContain("SESSION_SECRET");
  });

  it("does not require SESSION_SECRET in production with the embedded database", () => {
    const config = parseConfig({ NODE_ENV: "production", DATA_DIR: tempDataDir() });
    expect(config.sessionSecrets).toHaveLength(1);
  });

  it("keeps a comma-separated SESSION_SECRET list in order, trimmed, so that the first one signs", () => {
    const config = parseConfig({
      SESSION_SECRET: "newest-secret-0123456789, older-secret-0123456789 ,oldest-secret-0123456789",
    });
    expect(config.sessionSecrets).toEqual([
      "newest-secret-0123456789",
      "older-secret-0123456789",
      "oldest-secret-0123456789",
    ]);
  });

  it("refuses a secret shorter than 16 characters anywhere in the list", () => {
    const error = configErrorOf({ SESSION_SECRET: "long-enough-secret-0123,short" });
    expect(error.message).toContain("SESSION_SECRET");
  });

  it("generates a secret into DATA_DIR/session-secret and reuses it on the next parse", () => {
    const dataDir = path.join(tempDataDir(), "nested", "data");
    const first = parseConfig({ DATA_DIR: dataDir });
    const file = path.join(dataDir, "session-secret");
    expect(existsSync(file)).toBe(true);
    expect(readFileSync(file, "utf8").trim()).toBe(first.sessionSecrets[0]);
    expect(first.sessionSecrets[0]!.length).toBeGreaterThanOrEqual(32);
    expect(statSync(file).mode & 0o077).toBe(0);

    const second = parseConfig({ DATA_DIR: dataDir });
    expect(second.sessionSecrets).toEqual(first.sessionSecrets);
  });

  it("does not write a secret file when SESSION_SECRET is given", () => {
    const dataDir = tempDataDir();
    parseConfig({ DATA_DIR: dataDir, SESSION_SECRET: SECRET });
    expect(existsSync(path.join(dataDir, "session-secret"))).toBe(false);
  });
});

describe("parseConfig cookies and CORS", () => {
  it("marks cookies Secure only when APP_URL is https", () => {
    expect(parseConfig({ SESSION_SECRET: SECRET, APP_URL: "https://shop.example.com" }).secureCookies).toBe(
      true,
    );
    expect(parseConfig({ SESSION_SECRET: SECRET, APP_URL: "http://shop.example.com" }).secureCookies).toBe(
      false,
    );
    expect(parseConfig({ SESSION_SECRET: SECRET }).secureCookies).toBe(false);
  });

  it("normalises CORS_ORIGINS to bare origins and skips empty entries", () => {
    const config = parseConfig({
      SESSION_SECRET: SECRET,
      CORS_ORIGINS:
        " https://app.example.com/ ,http://localhost:5173/some/path,, HTTPS://Mobile.Example.com ",
    });
    expect(config.corsOrigins).toEqual([
      "https://app.example.com",
      "http://localhost:5173",
      "https://mobile.example.com",
    ]);
  });
});

describe("parseConfig database pool, reconciler and simulator latency", () => {
  it("defaults to a pool of 10 with a 5 s acquire timeout and prepared statements, a reconciler every minute, 2 min grace, 3 h approvals, no latency", () => {
    const config = parseConfig({ SESSION_SECRET: SECRET, DATA_DIR: tempDataDir() });
    expect(config.databasePool).toEqual({ max: 10, acquireTimeoutMs: 5_000, preparedStatements: true });
    expect(config.reconcile).toEqual({ intervalMs: 60_000, graceMs: 120_000, approvalTtlMs: 180 * 60_000 });
    expect(config.simulatorLatencyMs).toBe(0);
  });

  it("reads the variables", () => {
    const config = parseConfig({
      SESSION_SECRET: SECRET,
      DATABASE_POOL_MAX: "1",
      DATABASE_POOL_ACQUIRE_TIMEOUT_MS: "2500",
      DATABASE_PREPARED_STATEMENTS: "false",
      PAYMENT_RECONCILE_INTERVAL_SECONDS: "0",
      PAYMENT_RECONCILE_GRACE_SECONDS: "5",
      PAYMENT_APPROVAL_TTL_MINUTES: "60",
      PAYMENT_SIMULATOR_LATENCY_MS: "800",
    });
    expect(config.databasePool).toEqual({ max: 1, acquireTimeoutMs: 2_500, preparedStatements: false });
    expect(config.reconcile).toEqual({ intervalMs: 0, graceMs: 5_000, approvalTtlMs: 3_600_000 });
    expect(config.simulatorLatencyMs).toBe(800);
  });

  it.each([
    ["DATABASE_POOL_MAX", "0"],
    ["DATABASE_POOL_MAX", "ten"],
    ["DATABASE_POOL_ACQUIRE_TIMEOUT_MS", "1.5"],
    ["DATABASE_PREPARED_STATEMENTS", "off"],
    ["PAYMENT_RECONCILE_GRACE_SECONDS", "-1"],
    ["PAYMENT_APPROVAL_TTL_MINUTES", "0"],
    ["PAYMENT_SIMULATOR_LATENCY_MS", "fast"],
  ])("refuses %s=%s, naming it", (name, value) => {
    const error = configErrorOf({ SESSION_SECRET: SECRET, [name]: value });
    expect(error.problems.some((problem) => problem.startsWith(`${name}:`))).toBe(true);
  });
});

describe("parseConfig REGISTER_LIMIT_PER_HOUR", () => {
  it("defaults to 10 registrations per client and hour", () => {
    expect(parseConfig({ SESSION_SECRET: SECRET, DATA_DIR: tempDataDir() }).registerLimitPerHour).toBe(10);
  });

  it("takes a whole number of at least 1", () => {
    const env = { SESSION_SECRET: SECRET, DATA_DIR: tempDataDir(), REGISTER_LIMIT_PER_HOUR: "250" };
    expect(parseConfig(env).registerLimitPerHour).toBe(250);
  });

  it("refuses 0, fractions and words, naming the variable", () => {
    for (const value of ["0", "2.5", "many"]) {
      const error = configErrorOf({ SESSION_SECRET: SECRET, REGISTER_LIMIT_PER_HOUR: value });
      expect(error.problems.some((problem) => problem.startsWith("REGISTER_LIMIT_PER_HOUR:"))).toBe(true);
    }
  });
});

describe("parseConfig mail", () => {
  it("defaults to .eml files under DATA_DIR/mail, a local sender and a 10-second poll", () => {
    const dataDir = tempDataDir();
    const config = parseConfig({ SESSION_SECRET: SECRET, DATA_DIR: dataDir });
    expect(config.mail).toEqual({
      smtpUrl: null,
      from: "ECommerce Shopping <shop@localhost>",
      dir: path.join(dataDir, "mail"),
      pollSeconds: 10,
    });
  });

  it("takes SMTP_URL with MAIL_FROM", () => {
    const config = parseConfig({
      SESSION_SECRET: SECRET,
      SMTP_URL: "smtps://user:pass@smtp.example.com:465",
      MAIL_FROM: "Shop <orders@shop.example.com>",
      MAIL_POLL_SECONDS: "30",
    });
    expect(config.mail).toMatchObject({
      smtpUrl: "smtps://user:pass@smtp.example.com:465",
      from: "Shop <orders@shop.example.com>",
      pollSeconds: 30,
    });
  });

  it("refuses SMTP_URL without MAIL_FROM, naming MAIL_FROM", () => {
    const error = configErrorOf({ SESSION_SECRET: SECRET, SMTP_URL: "smtp://localhost:25" });
    expect(error.problems.join("\n")).toMatch(/^MAIL_FROM: is required when SMTP_URL is set/m);
  });

  it.each(["http://smtp.example.com", "smtp.example.com:25", "smtp://"])("refuses SMTP_URL=%s", (value) => {
    const error = configErrorOf({ SESSION_SECRET: SECRET, SMTP_URL: value, MAIL_FROM: "a@b.example" });
    expect(error.message).toContain("SMTP_URL");
  });

  it.each(["0", "x", "3601"])("refuses MAIL_POLL_SECONDS=%s", (value) => {
    const error = configErrorOf({ SESSION_SECRET: SECRET, MAIL_POLL_SECONDS: value });
    expect(error.message).toContain("MAIL_POLL_SECONDS");
  });
});
