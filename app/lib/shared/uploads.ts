/**
 * Upload limits and messages shared by the server (which enforces them) and
 * the upload component (which checks first, as a courtesy). Safe to import in
 * the browser.
 */

export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;

/** The extensions SPEC §5 accepts; the server checks the bytes, not the name. */
export const IMAGE_EXTENSIONS = ["jpg", "jpeg", "png", "gif", "webp", "svg", "bmp"] as const;

/** For the file picker's `accept`: the extensions and their MIME types. */
export const IMAGE_ACCEPT = [
  ...IMAGE_EXTENSIONS.map((extension) => `.${extension}`),
  "image/jpeg",
  "image/png",
  "image/gif",
  "image/webp",
  "image/svg+xml",
  "image/bmp",
].join(",");

/** The spec's alert for a file that is not an image (SPEC §5). */
export const PLEASE_UPLOAD_IMAGE = "Please upload an image file";
export const NOT_AN_IMAGE_MESSAGE = `${PLEASE_UPLOAD_IMAGE} (jpg, jpeg, png, gif, webp, svg or bmp)`;
export const TOO_LARGE_MESSAGE = "The image must be at most 5 MB";

/** The browser's first look: the name's extension or the MIME type says image. */
export function looksLikeImageFile(file: { name: string; type: string }): boolean {
  const extension = file.name.split(".").pop()?.toLowerCase() ?? "";
  return (IMAGE_EXTENSIONS as readonly string[]).includes(extension) || file.type.startsWith("image/");
}
