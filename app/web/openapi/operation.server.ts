import type { z } from "zod";

/** The shape of one JSON API operation: operations.server.ts and operations-admin.server.ts list them. */

export type Access = "public" | "signed-in" | "shopper" | "admin";
type HttpMethod = "get" | "post" | "put" | "delete";

export interface ApiOperation {
  method: HttpMethod;
  /** An OpenAPI path template: `/api/shop/cart/get/{userId}`. */
  path: string;
  tag: string;
  summary: string;
  description?: string;
  access: Access;
  /** Path parameters that the route validates with a schema (the others are ids: strings). */
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.core.$ZodType;
  /** multipart/form-data for the upload; JSON otherwise. */
  multipart?: boolean;
  /** Success answers (2xx), each with its JSON body. */
  success: Record<number, { description: string; schema: z.ZodType }>;
  /** The refusals worth naming (4xx/5xx); each answers the Error shape… */
  errors: Record<number, string>;
  /** …except these, which say more. */
  refusals?: { statuses: number[]; schema: z.ZodType };
  /** A non-JSON answer (the docs page). */
  produces?: string;
}
