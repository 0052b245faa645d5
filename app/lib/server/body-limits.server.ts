import { MAX_IMPORT_BYTES } from "~/lib/shared/catalogue-csv";
import { MAX_PRODUCT_IMAGES } from "~/lib/shared/product";
import { MAX_UPLOAD_BYTES } from "~/lib/shared/uploads";

/**
 * How large a request body may be (docs/architecture.md, rule 10: bounded input). Every body is read through
 * app/lib/server/request-body.server.ts with the bound of the route that reads it: a form or a JSON body 1 MB,
 * and only the routes that take files more; those routes also declare their bound in their middleware
 * (app/web/http-middleware.server.ts), which refuses a larger declared length before the route runs. The HTTP
 * server refuses a declared length above the largest of them before the router is reached (server/request-limits.ts).
 */
export const BODY_LIMIT_BYTES = 1024 * 1024;

/** Text fields are short (the longest is a product description): a bound for each and for all of a form's. */
export const MAX_TEXT_FIELD_BYTES = 64 * 1024;
export const MAX_TEXT_TOTAL_BYTES = 256 * 1024;

/** A multipart form of up to `maxFiles` files of `maxFileBytes` each, its text fields and the boundaries. */
export function multipartBodyLimit(maxFiles: number, maxFileBytes: number): number {
  return maxFiles * maxFileBytes + MAX_TEXT_TOTAL_BYTES + 64 * 1024;
}

/** One image of at most 5 MB with the form around it. */
export const UPLOAD_BODY_LIMIT_BYTES = multipartBodyLimit(1, MAX_UPLOAD_BYTES);
/** A product's pictures chosen at once in the admin form without JavaScript: up to eight images. */
export const PICTURES_BODY_LIMIT_BYTES = multipartBodyLimit(MAX_PRODUCT_IMAGES, MAX_UPLOAD_BYTES);
/** One catalogue CSV file of at most 10 MB with the form around it. */
export const IMPORT_BODY_LIMIT_BYTES = multipartBodyLimit(1, MAX_IMPORT_BYTES);
/** The largest body any route takes. */
export const MAX_BODY_LIMIT_BYTES = Math.max(
  BODY_LIMIT_BYTES,
  UPLOAD_BODY_LIMIT_BYTES,
  PICTURES_BODY_LIMIT_BYTES,
  IMPORT_BODY_LIMIT_BYTES,
);
export const BODY_TOO_LARGE_MESSAGE = "The request body is too large";
