import { z } from "zod";
import { badRequest, type FieldErrors } from "./errors.server";
import { parsePagingLeniently, wholeNumberUpTo, type Paging, type PagingLimits } from "../shared/paging";
import { fieldErrorsOf } from "../shared/schemas";

/**
 * The server half of the paging module (app/lib/shared/paging.ts holds the
 * types, the lenient parser and `paginationOf`): `page` and `limit` of the
 * JSON API's paged lists as a zod schema, which the routes validate with and
 * the OpenAPI document describes. Query values are text; empty or absent
 * means the default; anything but a whole number in range is a 400 that
 * names the range.
 */

function wholeNumber(name: string, max: number, fallback: number, description: string) {
  return z
    .string()
    .optional()
    .transform((raw, ctx): number => {
      if (raw === undefined || raw.trim() === "") return fallback;
      const value = wholeNumberUpTo(raw, max);
      if (value !== null) return value;
      ctx.addIssue({ code: "custom", message: `${name} must be a whole number from 1 to ${max}` });
      return z.NEVER;
    })
    .meta({ type: "string", pattern: "^\\d+$", default: String(fallback), description });
}

/**
 * The paging schema of a list's limits (module constants), built once per limits: zod works out how to parse
 * an object schema the first time it parses with it, so a schema built per request costs that work every time.
 */
export function pagingQuerySchema(limits: PagingLimits) {
  let schema = pagingSchemas.get(limits);
  if (!schema) {
    schema = z.object({
      page: wholeNumber("page", limits.maxPage, 1, `The page, from 1 to ${limits.maxPage}`),
      limit: wholeNumber(
        "limit",
        limits.maxLimit,
        limits.defaultLimit,
        `Items per page: default ${limits.defaultLimit}, at most ${limits.maxLimit}`,
      ),
    });
    pagingSchemas.set(limits, schema);
  }
  return schema;
}

type PagingSchema = z.ZodObject<{
  page: ReturnType<typeof wholeNumber>;
  limit: ReturnType<typeof wholeNumber>;
}>;
const pagingSchemas = new WeakMap<PagingLimits, PagingSchema>();

/**
 * `page` and `limit` of a query string. Strict by default, for the API, where
 * a caller wants to know: 400 naming the range, with the problems of the rest
 * of the query (`errors`) in the same answer. Pages pass `lenient` and fall
 * back to the defaults instead (parsePagingLeniently).
 */
export function parsePaging(
  params: URLSearchParams,
  limits: PagingLimits,
  options: { lenient?: boolean; errors?: FieldErrors } = {},
): Paging {
  if (options.lenient) return parsePagingLeniently(params, limits);
  const schema = pagingQuerySchema(limits);
  const parsed = schema.safeParse(queryValues(schema, params));
  const errors = { ...options.errors, ...(parsed.success ? {} : fieldErrorsOf(parsed.error)) };
  const messages = Object.values(errors).flat();
  if (parsed.success && !messages.length) return parsed.data;
  throw badRequest(messages[0]!, errors);
}

/** The query string's values for the schema's keys (absent ones undefined). */
function queryValues(schema: z.ZodObject, params: URLSearchParams): Record<string, string | undefined> {
  return Object.fromEntries(Object.keys(schema.shape).map((key) => [key, params.get(key) ?? undefined]));
}
