import { describe, expect, it } from "vitest";
import { documentBodyOf, documentResponse } from "../../app/lib/server/document-body.server";

const html = "<!DOCTYPE html><html><body><h1>Käse · 49,90 €</h1></body></html>";

describe("the rendered document's Response", () => {
  it("hands the HTTP server the document as the string React rendered", () => {
    const response = documentResponse(html, { status: 403, headers: { "Content-Type": "text/html" } });
    expect(documentBodyOf(response)).toBe(html);
    expect(response.status).toBe(403);
    expect(response.headers.get("Content-Type")).toBe("text/html");
  });

  it("reads like any Response: text, bytes (UTF-8) and body stream", async () => {
    expect(await documentResponse(html, {}).text()).toBe(html);
    const bytes = new Uint8Array(await documentResponse(html, {}).arrayBuffer());
    expect(Buffer.from(bytes).toString("utf8")).toBe(html);
    expect(bytes.byteLength).toBe(Buffer.byteLength(html));
    const streamed = await new Response(documentResponse(html, {}).body).text();
    expect(streamed).toBe(html);
  });

  it("knows no document in a Response it did not make", () => {
    expect(documentBodyOf(new Response(html))).toBeUndefined();
  });
});
