import type { z } from "zod";
import type { Permission } from "~/lib/shared/permissions";

/**
 * How one JSON API operation is declared, beside its handler in its route module (`apiOperation`,
 * app/web/api.server.ts): the schemas `apiRoute` parses the request with, the answers, who may call it.
 * openapi.server.ts turns the declarations of the API's table into the OpenAPI document
 * (docs/decisions/0040-api-operations-by-route.md).
 */

/**
 * Who may call: anyone, any signed-in user, a shopper (never the back office), a shopper or (the open
 * storefront) a visitor without an account for the cart its `guest_cart` cookie names, or the back
 * office's area.
 */
export type Access = "public" | "signed-in" | "shopper" | "cart" | Permission;
export type HttpMethod = "get" | "post" | "put" | "delete";

/** The document's sections, in the order the reference shows them. */
export const API_TAGS = [
  "Auth",
  "Account",
  "Catalogue",
  "Reviews",
  "Feature images",
  "Cart",
  "Addresses",
  "Orders",
  "Delivery and discounts",
  "Admin",
  "Returns",
  "Gift cards",
  "Privacy",
  "Webhooks",
  "Back-in-stock alerts and wishlist",
  "Staff and API keys",
  "Staff",
  "Reference",
] as const;

export interface ApiDeclaration {
  tag: (typeof API_TAGS)[number];
  summary: string;
  description?: string;
  access: Access;
  /** The 401's message when nobody is signed in, where the operation says more than the default. */
  unauthorized?: string;
  /** The path parameters' schema; parameters it does not name are ids (strings), as the router gives them. */
  params?: z.ZodObject;
  query?: z.core.$ZodType;
  /** The JSON body's schema: `apiRoute` parses with it (multipart: only described; the handler reads the form). */
  body?: z.core.$ZodType;
  /**
   * "service": the service still parses the JSON object itself, with its own messages, and `body` only
   * describes it (to be moved into the declared schema; decision 0040).
   */
  parsedBy?: "service";
  /** The 400's message when `body` refuses the request, where the operation has one (else the first field's). */
  invalid?: string;
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

/** A declaration at its place in the API's table. */
export interface ApiOperation extends ApiDeclaration {
  method: HttpMethod;
  /** An OpenAPI path template: `/api/shop/cart/get/{userId}`. */
  path: string;
}
