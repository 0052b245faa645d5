/**
 * Errors that services throw and routes translate: the JSON API into a status
 * and `{ success: false, message, errors? }`, HTML actions into a flash message
 * or field errors. A service never knows which face called it.
 */
export type FieldErrors = Record<string, string[]>;

export class AppError extends Error {
  constructor(
    public readonly status: number,
    message: string,
    public readonly fieldErrors?: FieldErrors,
    public readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = "AppError";
  }
}

export const badRequest = (message: string, fieldErrors?: FieldErrors) =>
  new AppError(400, message, fieldErrors);
export const unauthorized = (message = "Please log in to continue") => new AppError(401, message);
export const forbidden = (message = "You don't have access to this resource") => new AppError(403, message);
export const notFound = (message = "Not found") => new AppError(404, message);
export const conflict = (message: string) => new AppError(409, message);
export const tooManyRequests = (message: string, retryAfterSeconds: number) =>
  new AppError(429, message, undefined, { "Retry-After": String(retryAfterSeconds) });

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}

/** True for PostgreSQL's unique_violation, whichever driver error wraps it. */
export function isUniqueViolation(error: unknown): boolean {
  const candidate = error as { name?: string; parent?: { code?: string }; original?: { code?: string } };
  return (
    candidate?.name === "SequelizeUniqueConstraintError" ||
    candidate?.parent?.code === "23505" ||
    candidate?.original?.code === "23505"
  );
}

/** Seconds a client is asked to wait (Retry-After) while the database is unreachable. */
export const OUTAGE_RETRY_AFTER_SECONDS = 10;
export const OUTAGE_MESSAGE =
  "The shop is briefly unavailable: our database cannot be reached. Please try again in a moment.";

// PostgreSQL codes of a server that is going away or cannot take the connection.
const OUTAGE_SQLSTATES = new Set(["57P01", "57P02", "57P03", "53300", "08000", "08001", "08003", "08006"]);
const OUTAGE_SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EHOSTUNREACH", "ENOTFOUND"]);

/**
 * True when an error means "the database is not there right now" rather than
 * a bug: Sequelize's ConnectionError family (refused, timed out, pool acquire
 * timeout: SequelizeConnectionAcquireTimeoutError…) or a driver error of a
 * connection that was dropped. Matched by name and code, since the HTTP server
 * and the server build load their own copies of these modules.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const candidate = error as {
    name?: string;
    message?: string;
    code?: string;
    parent?: { code?: string; message?: string };
  } | null;
  if (!candidate || typeof candidate !== "object") return false;
  const name = candidate.name ?? "";
  if (/^Sequelize\w*Connection\w*Error$/.test(name) || name === "SequelizeHostNotFoundError") return true;
  if (name === "SequelizeHostNotReachableError" || name === "SequelizeAccessDeniedError") return true;
  const code = candidate.parent?.code ?? candidate.code;
  if (code && (OUTAGE_SQLSTATES.has(code) || OUTAGE_SOCKET_CODES.has(code))) return true;
  const message = candidate.parent?.message ?? candidate.message ?? "";
  return /Connection terminated unexpectedly|terminating connection due to administrator command/i.test(
    message,
  );
}

/** Every pooled connection stayed busy for the acquire timeout: a burst, not an outage; a short wait. */
const POOL_BUSY_RETRY_AFTER_SECONDS = 5;
const POOL_BUSY_MESSAGE = "The shop is very busy right now. Please try again in a moment.";

/** The 503 for an error that isDatabaseUnavailable accepts: a busy pool or an unreachable database. */
export function serviceUnavailable(error?: unknown): AppError {
  if ((error as { name?: string } | null)?.name === "SequelizeConnectionAcquireTimeoutError") {
    return new AppError(503, POOL_BUSY_MESSAGE, undefined, {
      "Retry-After": String(POOL_BUSY_RETRY_AFTER_SECONDS),
    });
  }
  return new AppError(503, OUTAGE_MESSAGE, undefined, { "Retry-After": String(OUTAGE_RETRY_AFTER_SECONDS) });
}
