import { z } from "zod";
import { badRequest } from "./errors.server";
import { fieldErrorsOf } from "../shared/schemas";

/**
 * `page` and `limit` of the JSON API's paged lists, as a zod schema: the
 * routes validate with it and the OpenAPI document describes it. Query
 * values are text; empty or absent means the default; anything but a whole
 * number in range is a 400 that names the range.
 */

function wholeNumber(name: string, max: number, fallback: number, description: string) {
  return z
    .string()
    .optional()
    .transform((raw, ctx): number => {
      if (raw === undefined || raw.trim() === "") return fallback;
      const value = /^\d{1,9}$/.test(raw.trim()) ? Number(raw.trim()) : NaN;
      if (Number.isInteger(value) && value >= 1 && value <= max) return value;
      ctx.addIssue({ code: "custom", message: `${name} must be a whole number from 1 to ${max}` });
      return z.NEVER;
    })
    .meta({ type: "string", pattern: "^\\d+$", default: String(fallback), description });
}

export function pagingQuerySchema(options: { defaultLimit: number; maxLimit: number; maxPage: number }) {
  return z.object({
    page: wholeNumber("page", options.maxPage, 1, `The page, from 1 to ${options.maxPage}`),
    limit: wholeNumber(
      "limit",
      options.maxLimit,
      options.defaultLimit,
      `Items per page: default ${options.defaultLimit}, at most ${options.maxLimit}`,
    ),
  });
}

/** The query string's values for the schema's keys (absent ones undefined). */
export function queryValues(
  schema: z.ZodObject,
  params: URLSearchParams,
): Record<string, string | undefined> {
  return Object.fromEntries(Object.keys(schema.shape).map((key) => [key, params.get(key) ?? undefined]));
}

/** Parses `params` with `schema`: 400 with the first problem as the message and all of them in `errors`. */
export function parseQuery<T extends z.ZodObject>(schema: T, params: URLSearchParams): z.output<T> {
  const parsed = schema.safeParse(queryValues(schema, params));
  if (!parsed.success) {
    const errors = fieldErrorsOf(parsed.error);
    throw badRequest(Object.values(errors).flat()[0]!, errors);
  }
  return parsed.data;
}
