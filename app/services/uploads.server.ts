import { QueryTypes } from "sequelize";
import { getDb } from "~/models/db.server";
import { AppError, badRequest } from "~/lib/server/errors.server";
import { getStorage, isOriginalKey, type StoredFile } from "~/lib/server/storage.server";
import { deleteImageWidths, storeWidthsAndRecord } from "~/services/images.server";
import { processUpload } from "~/services/image-processing.server";
import {
  IMAGE_EXTENSIONS,
  MAX_UPLOAD_BYTES,
  NOT_AN_IMAGE_MESSAGE,
  TOO_LARGE_MESSAGE,
} from "~/lib/shared/uploads";

/**
 * Image uploads, for both faces: the JSON API (`upload-image`) and the admin
 * pages' forms. The web layer reads the multipart body (app/web/uploads.server.ts)
 * and hands the files over, parsed; this module never sees a request nor the
 * form's field names. The bytes decide what a file is, never its name or the
 * browser's MIME type.
 */

export { IMAGE_EXTENSIONS, MAX_UPLOAD_BYTES, NOT_AN_IMAGE_MESSAGE, TOO_LARGE_MESSAGE };

/** A file as a form sent it: the name and type the browser gave (hints only), and its bytes. */
export interface UploadedFile {
  name: string;
  type: string;
  bytes: Uint8Array;
}

export interface ImageType {
  extension: "jpg" | "png" | "gif" | "webp" | "svg" | "bmp";
  contentType: string;
}

const startsWith = (bytes: Uint8Array, signature: number[], offset = 0) =>
  bytes.length >= offset + signature.length && signature.every((byte, i) => bytes[offset + i] === byte);
const ascii = (text: string) => [...text].map((char) => char.charCodeAt(0));

/** What the first bytes say the file is (one of the accepted image types), or null. */
export function detectImageType(bytes: Uint8Array): ImageType | null {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return { extension: "jpg", contentType: "image/jpeg" };
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) {
    return { extension: "png", contentType: "image/png" };
  }
  if (startsWith(bytes, ascii("GIF87a")) || startsWith(bytes, ascii("GIF89a"))) {
    return { extension: "gif", contentType: "image/gif" };
  }
  if (startsWith(bytes, ascii("RIFF")) && startsWith(bytes, ascii("WEBP"), 8)) {
    return { extension: "webp", contentType: "image/webp" };
  }
  if (isBmp(bytes)) return { extension: "bmp", contentType: "image/bmp" };
  if (looksLikeSvg(bytes)) return { extension: "svg", contentType: "image/svg+xml" };
  return null;
}

/** "BM", then a DIB header of one of the sizes that BMP versions define. */
function isBmp(bytes: Uint8Array): boolean {
  if (bytes.length < 26 || !startsWith(bytes, ascii("BM"))) return false;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const dibHeaderSize = view.getUint32(14, true);
  const pixelOffset = view.getUint32(10, true);
  return [12, 40, 52, 56, 64, 108, 124].includes(dibHeaderSize) && pixelOffset >= 14 + dibHeaderSize;
}

/**
 * Text whose first element is <svg>, after an optional BOM, XML declaration,
 * comments and doctype. Binary data (a NUL byte) is never SVG.
 */
function looksLikeSvg(bytes: Uint8Array): boolean {
  const head = bytes.subarray(0, 4096);
  if (head.includes(0)) return false;
  const text = new TextDecoder("utf-8", { fatal: false }).decode(head).replace(/^\uFEFF/, "");
  const prolog =
    /^\s*(<\?xml[\s\S]*?\?>\s*)?((<!--[\s\S]*?-->|<!DOCTYPE[^>[]*(\[[\s\S]*?\])?\s*>)\s*)*<svg[\s>/]/i;
  return prolog.test(text);
}

/** CSS escapes ("\\75rl(" is "url("), read as the characters they stand for before the checks below. */
function unescapeCss(css: string): string {
  return css
    .replace(/\\([0-9a-f]{1,6})[ \t\n\r\f]?/gi, (_match, hex: string) => {
      const code = parseInt(hex, 16);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : "\ufffd";
    })
    .replace(/\\([^\n])/g, "$1");
}

/**
 * CSS without anything that fetches from elsewhere: every statement at-rule
 * (@import, whatever its spelling) goes, and every url() or image-set() that
 * is not a reference inside the file (url(#gradient)) becomes `none`.
 */
export function withoutExternalCssReferences(css: string): string {
  return unescapeCss(css)
    .replace(/@[^{};]*(;|$)/g, "")
    .replace(/(?:-webkit-)?image-set\([^)]*\)/gi, "none")
    .replace(/url\(\s*(['"]?)([^)]*?)\1\s*\)/gi, (whole, _quote, target: string) =>
      target.trim().startsWith("#") ? whole : "none",
    );
}

/** A link attribute that stays inside the file, or an inline raster image: nothing to fetch. */
function isInternalReference(value: string): boolean {
  const target = value.trim();
  return target.startsWith("#") || /^data:image\/(png|jpeg|gif|webp);/i.test(target);
}

interface HookAttribute {
  attrName: string;
  attrValue: string;
  keepAttr: boolean;
}
type Purifier = {
  sanitize: (source: string, config: Record<string, unknown>) => string;
  addHook(entry: "uponSanitizeElement", hook: (node: Element) => void): void;
  addHook(entry: "uponSanitizeAttribute", hook: (node: Element, data: HookAttribute) => void): void;
};
let purifier: Promise<Purifier> | undefined;

/**
 * DOMPurify on a jsdom window, loaded on the first SVG (jsdom is large). It
 * keeps styles and links to other sites; the hooks take out what would fetch
 * from elsewhere (a stylesheet, a font, an image: a tracker when the file is
 * opened), so an upload is one self-contained picture.
 */
function getPurifier(): Promise<Purifier> {
  purifier ??= Promise.all([import("jsdom"), import("dompurify")]).then(([{ JSDOM }, dompurify]) => {
    const window = new JSDOM("").window;
    const purify = dompurify.default(
      window as unknown as Parameters<typeof dompurify.default>[0],
    ) as unknown as Purifier;
    purify.addHook("uponSanitizeElement", (node) => {
      if (node.nodeName.toLowerCase() === "style" && node.textContent) {
        node.textContent = withoutExternalCssReferences(node.textContent);
      }
    });
    purify.addHook("uponSanitizeAttribute", (node, data) => {
      const name = data.attrName.toLowerCase();
      // Presentation attributes take CSS values too: fill="url(https://…)".
      if (name === "style" || /url\(|image-set\(/i.test(unescapeCss(data.attrValue))) {
        data.attrValue = withoutExternalCssReferences(data.attrValue);
      }
      // A link the viewer follows (<a href>) fetches nothing by itself; any other reference must stay inside.
      if ((name === "href" || name === "xlink:href") && node.nodeName.toLowerCase() !== "a") {
        if (!isInternalReference(data.attrValue)) data.keepAttr = false;
      }
    });
    return purify;
  });
  return purifier;
}

/**
 * An SVG without scripts, event handlers, javascript: links or foreign HTML
 * (DOMPurify's SVG profile). The uploads are also served under a sandboxing
 * CSP (server/app.ts): two locks on one door.
 */
export async function sanitizeSvg(source: string): Promise<string> {
  const purify = await getPurifier();
  let clean = purify.sanitize(source, { USE_PROFILES: { svg: true, svgFilters: true } }).trim();
  if (!/^<svg[\s>]/i.test(clean)) throw badRequest(NOT_AN_IMAGE_MESSAGE);
  // A standalone SVG file renders only with its namespace, and is XML: no HTML-only entities.
  if (!/^<svg[^>]*\sxmlns=/i.test(clean))
    clean = clean.replace(/^<svg/i, '<svg xmlns="http://www.w3.org/2000/svg"');
  clean = clean.replace(/&nbsp;/g, "&#160;");
  return `<?xml version="1.0" encoding="UTF-8"?>\n${clean}\n`;
}

/**
 * Checks an uploaded file, processes it (image-processing.server.ts: upright,
 * no metadata, widths) and stores it under a generated name, its widths beside
 * it. 413 above 5 MB or 40 megapixels, 400 for an empty file, one that is not
 * an accepted image or does not decode, 503 when too many images are in the
 * queue. Nothing is stored unless the whole image was processed.
 */
export async function storeImage(file: UploadedFile): Promise<StoredFile> {
  if (file.bytes.byteLength > MAX_UPLOAD_BYTES) throw new AppError(413, TOO_LARGE_MESSAGE);
  if (file.bytes.byteLength === 0) throw badRequest("The file is empty");
  let bytes = file.bytes;
  const type = detectImageType(bytes);
  if (!type) throw badRequest(NOT_AN_IMAGE_MESSAGE);
  if (type.extension === "svg") {
    bytes = new TextEncoder().encode(await sanitizeSvg(new TextDecoder().decode(bytes)));
  }
  const processed = await processUpload(bytes, type.extension);
  const storage = getStorage();
  const stored = await storage.put({
    data: processed.original,
    extension: type.extension,
    contentType: type.contentType,
  });
  await storeWidthsAndRecord(storage, stored.key, processed);
  return stored;
}

/**
 * Removes an uploaded file that nothing refers to any more: no product (its
 * `image` or any picture of its gallery), no feature image and no order line
 * (orders keep their snapshot's picture).
 * URLs of other stores or of /images are left alone.
 */
export async function deleteUploadIfUnused(url: string | null | undefined): Promise<boolean> {
  if (!url) return false;
  const storage = getStorage();
  const key = storage.keyOf(url);
  if (!key) return false;
  const rows = await getDb().sequelize.query<{ used: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM products WHERE image = :url)
         OR EXISTS (SELECT 1 FROM product_images WHERE url = :url)
         OR EXISTS (SELECT 1 FROM feature_images WHERE image = :url)
         OR EXISTS (SELECT 1 FROM order_items WHERE image = :url) AS used`,
    { replacements: { url }, type: QueryTypes.SELECT },
  );
  if (rows[0]?.used) return false;
  if (isOriginalKey(key)) await deleteImageWidths(storage, key);
  await storage.delete(key);
  return true;
}

/** Whether an image reference points at an upload that is really there (other references: true). */
export async function uploadExists(url: string): Promise<boolean> {
  const storage = getStorage();
  const key = storage.keyOf(url);
  if (key) return storage.exists(key);
  return !url.startsWith("/uploads/");
}
