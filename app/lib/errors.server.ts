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
