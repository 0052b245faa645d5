import type { OpenApiDocument } from "./openapi.server";

/**
 * The readable API reference at /api/docs: plain HTML rendered from the
 * OpenAPI document on the server. No script, so it reads the same with
 * JavaScript off, in a terminal browser, or saved to a file.
 */

const escapeHtml = (text: unknown) =>
  String(text).replace(
    /[&<>"']/g,
    (char) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[char]!,
  );

type Json = Record<string, unknown>;

/** `**bold**` and `code` in descriptions, nothing else. */
function inline(text: string): string {
  return escapeHtml(text)
    .replace(/\*\*(.+?)\*\*/g, "<strong>$1</strong>")
    .replace(/`([^`]+)`/g, "<code>$1</code>");
}

function anchorOf(method: string, path: string): string {
  return `${method}-${path}`.replace(/[^A-Za-z0-9]+/g, "-");
}

/** A schema as indented JSON whose `$ref`s link to the schema section. */
function schemaBlock(schema: unknown): string {
  const text = escapeHtml(JSON.stringify(schema, null, 2));
  const linked = text.replace(
    /&quot;#\/components\/schemas\/(\w+)&quot;/g,
    (_match, name: string) => `<a href="#schema-${name}">&quot;${name}&quot;</a>`,
  );
  return `<pre><code>${linked}</code></pre>`;
}

function parametersTable(parameters: Json[]): string {
  if (!parameters.length) return "";
  const rows = parameters
    .map((parameter) => {
      const schema = (parameter.schema ?? {}) as Json;
      const type = schema.enum ? (schema.enum as string[]).join(" | ") : String(schema.type ?? "");
      return `<tr><td><code>${escapeHtml(parameter.name)}</code></td><td>${escapeHtml(parameter.in)}</td><td>${
        parameter.required ? "yes" : "no"
      }</td><td>${escapeHtml(type)}</td><td>${inline(String(parameter.description ?? ""))}</td></tr>`;
    })
    .join("");
  return `<h4>Parameters</h4><table><thead><tr><th>Name</th><th>In</th><th>Required</th><th>Type</th><th>Description</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function contentSchema(content: unknown): { type: string; schema: unknown } | null {
  const entries = Object.entries((content ?? {}) as Record<string, { schema: unknown }>);
  const first = entries[0];
  return first ? { type: first[0], schema: first[1].schema } : null;
}

function operationSection(path: string, method: string, operation: Json): string {
  const body = operation.requestBody as Json | undefined;
  const request = body ? contentSchema(body.content) : null;
  const responses = Object.entries(operation.responses as Record<string, Json>)
    .map(([status, response]) => {
      const content = contentSchema(response.content);
      return `<details><summary><strong>${escapeHtml(status)}</strong> ${inline(String(response.description))}</summary>${
        content ? schemaBlock(content.schema) : ""
      }</details>`;
    })
    .join("");
  const id = anchorOf(method, path);
  return `<section class="operation" id="${id}">
<h3><span class="method ${method}">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code></h3>
<p>${inline(String(operation.summary))}</p>
${String(operation.description ?? "")
  .split("\n\n")
  .map((paragraph) => `<p>${inline(paragraph)}</p>`)
  .join("")}
${parametersTable(operation.parameters as Json[])}
${request ? `<h4>Request body (${escapeHtml(request.type)})</h4>${schemaBlock(request.schema)}` : ""}
<h4>Responses</h4>${responses}
</section>`;
}

const STYLE = `
body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#1a1b1e;background:#fff}
main{max-width:60rem;margin:0 auto;padding:1rem}
pre{background:#f1f3f5;padding:.75rem;overflow:auto;font-size:.85rem;border-radius:4px}
code{font-family:ui-monospace,monospace}
table{border-collapse:collapse;width:100%;font-size:.9rem}td,th{border:1px solid #dee2e6;padding:.25rem .5rem;text-align:left;vertical-align:top}
.operation{border-top:1px solid #dee2e6;padding-top:.5rem}
.method{display:inline-block;min-width:4.5rem;padding:0 .4rem;border-radius:4px;color:#fff;font-size:.85rem;text-align:center}
.get{background:#1c7ed6}.post{background:#2b8a3e}.put{background:#e67700}.delete{background:#c92a2a}
nav ul{columns:2;padding-left:1.2rem}summary{cursor:pointer}
`;

export function renderApiDocs(document: OpenApiDocument): string {
  const byTag = new Map<string, string[]>();
  const toc = new Map<string, string[]>();
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods as Record<string, Json>)) {
      const tag = (operation.tags as string[])[0] ?? "Other";
      (byTag.get(tag) ?? byTag.set(tag, []).get(tag)!).push(operationSection(path, method, operation));
      (toc.get(tag) ?? toc.set(tag, []).get(tag)!).push(
        `<li><a href="#${anchorOf(method, path)}">${method.toUpperCase()} ${escapeHtml(path)}</a></li>`,
      );
    }
  }
  const tags = [...byTag.keys()];
  const schemas = Object.entries(document.components.schemas)
    .map(
      ([name, schema]) =>
        `<section id="schema-${name}"><h3>${escapeHtml(name)}</h3>${schemaBlock(schema)}</section>`,
    )
    .join("");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(document.info.title)} — reference</title><style>${STYLE}</style></head>
<body><main>
<h1>${escapeHtml(document.info.title)}</h1>
<p>${inline(document.info.description)}</p>
<p>Server: <code>${escapeHtml(document.servers[0]?.url)}</code>. Machine-readable: <a href="/api/openapi.json">/api/openapi.json</a> (OpenAPI ${escapeHtml(document.openapi)}).
Authentication: the <code>__session</code> cookie set by <code>POST /api/auth/login</code>.</p>
<nav aria-label="Operations">${tags.map((tag) => `<h2>${escapeHtml(tag)}</h2><ul>${toc.get(tag)!.join("")}</ul>`).join("")}</nav>
${tags.map((tag) => `<h2>${escapeHtml(tag)}</h2>${byTag.get(tag)!.join("")}`).join("")}
<h2 id="schemas">Schemas</h2>${schemas}
</main></body></html>`;
}
