import { describe, expect, it } from "vitest";
import { detectImageType, sanitizeSvg } from "../../app/services/uploads.server";
import { looksLikeImageFile } from "../../app/lib/shared/uploads";
import {
  bmpBytes,
  GIF_BYTES,
  JPEG_BYTES,
  PNG_BYTES,
  SVG_WITH_SCRIPT,
  WEBP_BYTES,
} from "../integration/admin-support";

const text = (value: string) => new TextEncoder().encode(value);

describe("detectImageType: the bytes decide", () => {
  it.each([
    ["png", PNG_BYTES, "image/png"],
    ["jpg", JPEG_BYTES, "image/jpeg"],
    ["gif", GIF_BYTES, "image/gif"],
    ["webp", WEBP_BYTES, "image/webp"],
    ["bmp", bmpBytes(), "image/bmp"],
  ] as const)("recognises %s", (extension, bytes, contentType) => {
    expect(detectImageType(bytes)).toEqual({ extension, contentType });
  });

  it("recognises SVG after a BOM, an XML declaration, comments and a doctype", () => {
    const svg =
      '\uFEFF<?xml version="1.0"?>\n<!-- drawn by hand -->\n' +
      '<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">\n' +
      '<svg xmlns="http://www.w3.org/2000/svg"></svg>';
    expect(detectImageType(text(svg))?.extension).toBe("svg");
    expect(detectImageType(text("<svg/>"))?.extension).toBe("svg");
  });

  it.each([
    ["plain text", text("hello, I am not a picture")],
    ["HTML", text("<!doctype html><html><body><svg></svg></body></html>")],
    ["a PDF", text("%PDF-1.7\n...")],
    ["an executable", Uint8Array.from([0x4d, 0x5a, 0x90, 0x00, 0x03])],
    ["an empty file", new Uint8Array()],
    ["'BM' text that is no bitmap", text("BMW owners club newsletter, spring edition")],
    ["RIFF audio", Uint8Array.from([...text("RIFF"), 0, 0, 0, 0, ...text("WAVEfmt ")])],
    ["a truncated PNG signature", PNG_BYTES.subarray(0, 4)],
    ["binary with an <svg inside", Uint8Array.from([0, 1, 2, ...text("<svg>")])],
  ])("refuses %s", (_name, bytes) => {
    expect(detectImageType(bytes)).toBeNull();
  });
});

describe("sanitizeSvg", () => {
  it("removes scripts, event handlers, javascript: links and foreign HTML", async () => {
    const clean = await sanitizeSvg(SVG_WITH_SCRIPT);
    expect(clean).not.toMatch(/<script/i);
    expect(clean).not.toMatch(/\bon\w+\s*=/i);
    expect(clean).not.toMatch(/javascript:/i);
    expect(clean).not.toMatch(/<iframe|<foreignObject/i);
    expect(clean).toContain("<rect");
    expect(clean).toMatch(
      /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/,
    );
  });

  it("removes every reference to elsewhere from styles, attributes and links, keeping references inside the file", async () => {
    const clean = await sanitizeSvg(
      [
        "<svg>",
        "<style>",
        "@import url(https://evil.example/a.css);",
        '@import "https://evil.example/b.css";',
        "@\\69mport url(https://evil.example/c.css);",
        ".a { fill: url(#shade); background: url( 'https://evil.example/d.png' ); }",
        ".b { background: \\75rl(https://evil.example/e.png); mask: image-set('https://evil.example/f.png' 1x); }",
        "@font-face { font-family: x; src: url(//evil.example/g.woff); }",
        "</style>",
        '<rect class="a" style="fill: url(https://evil.example/h.png)" fill="url(https://evil.example/i)" width="2" height="2"/>',
        '<image href="https://evil.example/j.png" width="2" height="2"/>',
        '<use xlink:href="https://evil.example/k.svg#x"/>',
        '<linearGradient id="shade" href="#base"/>',
        "</svg>",
      ].join("\n"),
    );
    expect(clean).not.toContain("evil.example");
    expect(clean).not.toMatch(/@import|@\\69/i);
    expect(clean).toContain("<style>");
    expect(clean).toContain("url(#shade)");
    expect(clean).toContain('href="#base"');
    expect(clean).toContain("<rect");
  });

  it("adds the SVG namespace when the file lacks it, and keeps it XML", async () => {
    const clean = await sanitizeSvg('<svg width="4" height="4"><text>a&nbsp;b</text></svg>');
    expect(clean).toContain('<svg xmlns="http://www.w3.org/2000/svg"');
    expect(clean).not.toContain("&nbsp;");
    expect(clean).toContain("&#160;");
  });

  it("refuses a document that is no SVG once cleaned", async () => {
    await expect(sanitizeSvg("<script>alert(1)</script>")).rejects.toMatchObject({ status: 400 });
  });
});

describe("looksLikeImageFile (the browser's first look)", () => {
  it("accepts the spec's extensions whatever the MIME type says", () => {
    for (const name of ["a.jpg", "a.JPEG", "a.png", "a.gif", "a.webp", "a.svg", "a.bmp"]) {
      expect(looksLikeImageFile({ name, type: "" })).toBe(true);
    }
  });
  it("refuses other files", () => {
    expect(looksLikeImageFile({ name: "notes.txt", type: "text/plain" })).toBe(false);
    expect(looksLikeImageFile({ name: "archive.zip", type: "application/zip" })).toBe(false);
  });
});
