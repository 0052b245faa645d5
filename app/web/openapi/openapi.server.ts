import { z } from "zod";
import { getConfig } from "~/lib/server/config.server";
import { API_TAGS, type Access, type ApiOperation } from "./operation.server";
import { errorSchema } from "./schemas.server";
import { isPermission, PERMISSION_LABELS, type Permission } from "~/lib/shared/permissions";

/**
 * The OpenAPI 3.1 document of the JSON API, generated from the operations its route modules declare
 * (operation.server.ts): the zod schemas that parse the requests and describe the answers, as zod 4's
 * JSON Schema output. Named schemas (`.meta({ id })`) become `components.schemas`.
 */

type JsonSchema = Record<string, unknown>;

type Role = "public" | "signed-in" | "shopper" | "cart" | "admin";

const ACCESS_TEXT: Record<Role, string> = {
  public: "Anyone (no session needed)",
  "signed-in": "Any signed-in user (shopper or admin)",
  shopper: "A signed-in shopper, for their own data only (admins get 403)",
  cart: 'A signed-in shopper, for their own cart only (admins get 403); in the open storefront also a visitor without an account, with `userId: "guest"`, for the cart its `guest_cart` cookie names',
  admin: "A signed-in admin",
};

/** The back office's area of an operation, or null outside the back office. */
export function areaOf(access: Access): Permission | null {
  return isPermission(access) ? access : null;
}

/** Who may call an operation of the back office: its area's permission, by session or by API key. */
function accessText(operation: ApiOperation): string {
  const area = areaOf(operation.access);
  if (!area) return ACCESS_TEXT[operation.access as Role];
  const keys = area === "staff" ? "never an API key" : "or an API key that holds it";
  return `A signed-in admin, or a staff member with the \`${area}\` permission (${PERMISSION_LABELS[area].label}); ${keys}`;
}

const ROLES: Record<Role, string[]> = {
  public: ["anonymous", "user", "admin"],
  "signed-in": ["user", "admin"],
  shopper: ["user"],
  cart: ["anonymous", "user"],
  admin: ["admin", "staff"],
};

/** One schema as JSON Schema, its named parts moved into `components`. */
function convert(
  schema: z.core.$ZodType,
  components: Record<string, JsonSchema>,
  io: "input" | "output",
): JsonSchema {
  const json = z.toJSONSchema(schema, { target: "draft-2020-12", io, unrepresentable: "any" }) as JsonSchema;
  const defs = (json.$defs ?? {}) as Record<string, JsonSchema>;
  delete json.$defs;
  delete json.$schema;
  const rewrite = <T>(value: T): T =>
    JSON.parse(JSON.stringify(value).replaceAll('"#/$defs/', '"#/components/schemas/')) as T;
  for (const [name, def] of Object.entries(defs)) {
    // Requests and answers may share a name with different shapes (input vs output).
    const key =
      io === "input" && name in components && !sameJson(components[name], def) ? `${name}Input` : name;
    components[key] = rewrite(def);
  }
  return rewrite(json);
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function pathParameters(operation: ApiOperation, components: Record<string, JsonSchema>) {
  const described = operation.params ? convert(operation.params, components, "input") : {};
  const properties = (described.properties ?? {}) as Record<string, JsonSchema>;
  return [...operation.path.matchAll(/\{(\w+)\}/g)].map((match) => {
    const { description, ...schema } = properties[match[1]!] ?? { type: "string" };
    return { name: match[1]!, in: "path", required: true, ...(description ? { description } : {}), schema };
  });
}

function queryParameters(operation: ApiOperation, components: Record<string, JsonSchema>) {
  if (!operation.query) return [];
  const json = convert(operation.query, components, "input");
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries(properties).map(([name, schema]) => {
    const { description, ...rest } = schema;
    return {
      name,
      in: "query",
      required: required.has(name),
      ...(description ? { description } : {}),
      schema: rest,
    };
  });
}

function operationObject(operation: ApiOperation, components: Record<string, JsonSchema>) {
  const responses: Record<string, unknown> = {};
  for (const [status, answer] of Object.entries(operation.success)) {
    responses[status] = {
      description: answer.description,
      content: {
        [operation.produces ?? "application/json"]: { schema: convert(answer.schema, components, "output") },
      },
    };
  }
  const errors: Record<number, string> = { ...operation.errors };
  if (operation.body && !operation.multipart) errors[415] ??= "The body is not JSON";
  const area = areaOf(operation.access);
  if (area) errors[401] ??= "Not signed in, or an unknown, revoked or expired API key";
  if (operation.access !== "public") errors[401] ??= "Not signed in";
  if (area)
    errors[403] ??= `Without the \`${area}\` permission (a shopper, a staff member or key without it)`;

  if (operation.access === "shopper" || operation.access === "cart") errors[403] ??= "Signed in as an admin";
  for (const [status, description] of Object.entries(errors)) {
    const schema = operation.refusals?.statuses.includes(Number(status))
      ? convert(operation.refusals.schema, components, "output")
      : errorRef;
    responses[status] = { description, content: { "application/json": { schema } } };
  }
  responses.default = {
    description: "Any other refusal (405 method not allowed, 429, 503 …): the Error shape",
    content: { "application/json": { schema: errorRef } },
  };
  const body = operation.body
    ? {
        required: true,
        content: {
          [operation.multipart ? "multipart/form-data" : "application/json"]: {
            schema: convert(operation.body, components, "input"),
          },
        },
      }
    : undefined;
  return {
    tags: [operation.tag],
    summary: operation.summary,
    description: [operation.description, `**Who may call:** ${accessText(operation)}.`]
      .filter(Boolean)
      .join("\n\n"),
    operationId: `${operation.method}${operation.path.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ?? "").toUpperCase())}`,
    "x-roles": ROLES[area ? "admin" : (operation.access as Role)],
    ...(area ? { "x-permission": area } : {}),
    security:
      operation.access === "public"
        ? []
        : area && area !== "staff"
          ? [{ sessionCookie: [] }, { apiKey: [] }]
          : [{ sessionCookie: [] }],
    parameters: [...pathParameters(operation, components), ...queryParameters(operation, components)],
    ...(body ? { requestBody: body } : {}),
    responses,
  };
}

const errorRef = { $ref: "#/components/schemas/Error" };

/** The document of `operations` for this shop (its APP_URL as the server). */
export function buildOpenApiDocument(operations: readonly ApiOperation[]) {
  const components: Record<string, JsonSchema> = {};
  // A named schema at the root comes back as a $ref; its definition lands in components.
  convert(errorSchema, components, "output");
  const paths: Record<string, Record<string, unknown>> = {};
  for (const operation of operations) {
    (paths[operation.path] ??= {})[operation.method] = operationObject(operation, components);
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "ECommerce Shopping JSON API",
      version: "1.0.0",
      description:
        "The shop's JSON API for external clients. Every answer is JSON with a boolean `success`; refusals " +
        "are `{ success: false, message, errors? }`. Sign in with `POST /api/auth/login` and send the " +
        '`__session` cookie on every call (in a browser on another origin: `credentials: "include"`, ' +
        "from an origin listed in CORS_ORIGINS). Image URLs are absolute. A program calls the back office's " +
        "operations with an API key instead (`Authorization: Bearer shop_sk_…`): no cookie, no origin check, " +
        "the key's permissions only, rate limited per key.",
    },
    servers: [{ url: getConfig().appUrl }],
    tags: API_TAGS.filter((tag) => operations.some((operation) => operation.tag === tag)).map((name) => ({
      name,
    })),
    paths,
    components: {
      schemas: components,
      securitySchemes: {
        sessionCookie: {
          type: "apiKey",
          in: "cookie",
          name: "__session",
          description: "The signed, httpOnly session cookie that `POST /api/auth/login` sets",
        },
        apiKey: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "shop_sk_…",
          description:
            "An API key made on the staff page or with `POST /api/admin/api-keys`: `Authorization: Bearer " +
            "shop_sk_…`. It acts with its own permissions (never more than its creator's, never `staff`); " +
            "cookies are not read and the origin check does not apply; an unknown, revoked or expired key " +
            "answers 401, a key without the operation's permission 403, too many calls 429.",
        },
      },
    },
  };
}

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;

let published: readonly ApiOperation[] | undefined;
let cached: { appUrl: string; document: OpenApiDocument } | undefined;

/**
 * The operations of the API's table (app/web/shop-api.server.ts publishes them once it is built): the
 * routes that serve the document are modules of that table, so they cannot import it.
 */
export function publishApiOperations(operations: readonly ApiOperation[]) {
  published = operations;
  cached = undefined;
}

/** Built once per APP_URL: the schemas do not change while the process runs. */
export function getOpenApiDocument(): OpenApiDocument {
  if (!published) throw new Error("The API's table is not built yet (app/web/shop-api.server.ts)");
  const appUrl = getConfig().appUrl;
  if (cached?.appUrl !== appUrl) cached = { appUrl, document: buildOpenApiDocument(published) };
  return cached.document;
}
