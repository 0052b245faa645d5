/**
 * The widths and formats every processed upload is stored in (docs/decisions/0013-image-pipeline.md).
 * One list for the server, which stores them, and the pages, which build `srcset` from it. Safe to
 * import in the browser.
 */

/** Target widths in CSS pixels × density, small to large; an image gets those narrower than itself plus its own width. */
export const IMAGE_WIDTHS = [160, 320, 480, 640, 960, 1280, 1920, 2560] as const;

/** The formats of the stored widths: AVIF where the browser takes it, WebP everywhere else. */
export const IMAGE_FORMATS = ["avif", "webp"] as const;
export type ImageFormat = (typeof IMAGE_FORMATS)[number];

/** What `?w=` serves when no `format` is named: every current browser decodes WebP. */
export const DEFAULT_IMAGE_FORMAT: ImageFormat = "webp";

/** The largest `?w=` a client may ask for (anything above is answered by the largest stored width). */
export const MAX_REQUESTED_WIDTH = 10_000;

/**
 * The widest width stored: no page asks for more, and encoding a 4000-pixel
 * AVIF would cost seconds of the upload (decision record 0013). An image wider
 * than this is still served whole at its plain URL.
 */
export const MAX_IMAGE_WIDTH = Math.max(...IMAGE_WIDTHS);

/**
 * The widths stored for an image `width` pixels wide: the list's smaller ones,
 * then its own width (or the list's largest for a wider image). Never wider
 * than the image.
 */
export function widthsFor(width: number): number[] {
  const top = Math.min(width, MAX_IMAGE_WIDTH);
  return [...IMAGE_WIDTHS.filter((candidate) => candidate < top), top];
}

/** The stored width that serves a request for `requested` pixels: the nearest at or above, else the largest. */
export function pickWidth(stored: readonly number[], requested: number): number | null {
  const sorted = [...stored].sort((a, b) => a - b);
  return sorted.find((width) => width >= requested) ?? sorted.at(-1) ?? null;
}

/** The URL of one width of an upload: its own URL with `?w=` (and `format` when not the default). */
export function imageWidthUrl(
  url: string,
  width: number,
  format: ImageFormat = DEFAULT_IMAGE_FORMAT,
): string {
  const query = format === DEFAULT_IMAGE_FORMAT ? `w=${width}` : `w=${width}&format=${format}`;
  return `${url}${url.includes("?") ? "&" : "?"}${query}`;
}
