import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { buildOpenApiDocument, type OpenApiDocument } from "../../app/web/openapi/openapi.server";
import { shopApi } from "../../app/web/shop-api.server";

/**
 * The API contract in the tests: every JSON API answer that an
 * integration test receives through the shared request helpers is checked
 * against the OpenAPI document, so that a route drifting from its
 * description fails the test that called it.
 */

type ValidateFunction = ReturnType<Ajv2020["compile"]>;

let state: { document: OpenApiDocument; ajv: Ajv2020; cache: Map<string, ValidateFunction> } | undefined;

function setup() {
  if (state) return state;
  const document = buildOpenApiDocument(shopApi.operations);
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  state = { document, ajv, cache: new Map() };
  return state;
}

/** The documented path template of `pathname` for `method`, if any (literal segments win). */
export function documentedPath(document: OpenApiDocument, pathname: string, method: string): string | null {
  const candidates = Object.entries(document.paths)
    .filter(([template, methods]) => {
      if (!(method in methods)) return false;
      const pattern = template.replace(/[.]/g, "\\.").replace(/\{\w+\}/g, "[^/]+");
      return new RegExp(`^${pattern}$`).test(pathname);
    })
    .map(([template]) => template)
    .sort((a, b) => (a.match(/\{/g)?.length ?? 0) - (b.match(/\{/g)?.length ?? 0));
  return candidates[0] ?? null;
}

/** The validator of the schema at `path` in the document; its `$ref`s resolve to the document's components. */
function validatorFor(path: string[]): ValidateFunction {
  const { ajv, cache, document } = setup();
  const key = path.join("\n");
  let validate = cache.get(key);
  if (!validate) {
    let schema: unknown = document;
    for (const part of path) schema = (schema as Record<string, unknown> | undefined)?.[part];
    if (!schema || typeof schema !== "object")
      throw new Error(`The OpenAPI document has no schema at ${path.join(" ")}`);
    validate = ajv.compile({ ...schema, components: document.components });
    cache.set(key, validate);
  }
  return validate;
}

/** Throws when `response` (to `request`) is not what the document promises. */
export async function assertMatchesContract(request: Request, response: Response): Promise<void> {
  const url = new URL(request.url);
  if (!url.pathname.startsWith("/api/")) return;
  const { document } = setup();
  const method = request.method.toLowerCase();
  const template = documentedPath(document, url.pathname, method);
  const status = String(response.status);
  const where = `${request.method} ${url.pathname} → ${status}`;
  const contentType = response.headers.get("Content-Type") ?? "";

  let ref: string[];
  if (!template) {
    // Unknown paths and methods answer the Error shape (404, 405), like every refusal.
    if (response.status < 400) throw new Error(`Contract: ${where} is not in the OpenAPI document`);
    ref = ["components", "schemas", "Error"];
  } else {
    const responses = (document.paths[template] as Record<string, { responses: Record<string, unknown> }>)[
      method
    ]!.responses;
    const key = status in responses ? status : "default";
    if (key === "default" && response.status < 400) {
      throw new Error(`Contract: ${where} is a success the document does not list for ${template}`);
    }
    const content = (responses[key] as { content: Record<string, unknown> }).content;
    const mediaType = Object.keys(content)[0]!;
    if (mediaType !== "application/json") {
      if (!contentType.startsWith(mediaType))
        throw new Error(`Contract: ${where} answered ${contentType}, not ${mediaType}`);
      return;
    }
    ref = ["paths", template, method, "responses", key, "content", mediaType, "schema"];
  }
  if (!/^application\/json/.test(contentType))
    throw new Error(`Contract: ${where} answered ${contentType}, not JSON`);
  const body: unknown = await response.clone().json();
  const validate = validatorFor(ref);
  if (!validate(body)) {
    const problems = (validate.errors ?? [])
      .map((error) => `${error.instancePath || "/"} ${error.message}`)
      .join("; ");
    throw new Error(
      `Contract: ${where} does not match the OpenAPI document: ${problems}\n${JSON.stringify(body).slice(0, 500)}`,
    );
  }
}
