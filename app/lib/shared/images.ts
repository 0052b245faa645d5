/**
 * The widths and formats every processed upload is stored in (docs/decisions/0013-image-pipeline.md).
 * One list for the server, which stores them, and the pages, which build `srcset` from it. Safe to
 * import in the browser.
 */

/**
 * Target widths in CSS pixels × density, small to large; an image gets those narrower than itself plus its own
 * width. 400 and 800 are what a phone's card (164–193 px) and product picture (343–398 px) need at the 2×
 * that `pictureSizes` caps the density at, so that neither jumps to the next width up
 * (docs/decisions/0023-phone-pictures-and-product-page-paint.md).
 */
export const IMAGE_WIDTHS = [160, 320, 400, 640, 800, 1280, 1920, 2560] as const;

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
const MAX_IMAGE_WIDTH = Math.max(...IMAGE_WIDTHS);

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

/** The extensions the pipeline stores widths for (images.server.ts): SVG and BMP uploads have none. */
const PROCESSED_EXTENSIONS = "jpg|png|gif|webp";
/** An upload's key at the end of its URL: the UUID the shop generated and its extension. */
const UPLOAD_KEY_AT_END = new RegExp(
  `([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\\.(${PROCESSED_EXTENSIONS})$`,
);

/**
 * The URL of one stored width of an upload: the width's own key beside the original's,
 * `/uploads/<uuid>.jpg` → `/uploads/<uuid>-w320.avif` (or the same under S3_PUBLIC_URL),
 * a static, immutable file that needs no lookup (docs/decisions/0019). Null for any URL
 * that is not a processed upload (a drawing under /images, another site's picture, SVG, BMP).
 */
export function imageWidthUrl(url: string, width: number, format: ImageFormat): string | null {
  const match = UPLOAD_KEY_AT_END.exec(url);
  if (!match || !Number.isInteger(width) || width < 1) return null;
  return `${url.slice(0, match.index)}${match[1]}-w${width}.${format}`;
}

/**
 * The `srcset` of an upload `width` pixels wide in one format: every stored width with
 * its `w` descriptor, never wider than the original. Empty for a URL with no stored widths.
 */
export function imageSrcSet(url: string, width: number | null, format: ImageFormat): string {
  if (!width || !imageWidthUrl(url, width, format)) return "";
  return widthsFor(width)
    .map((candidate) => `${imageWidthUrl(url, candidate, format)} ${candidate}w`)
    .join(", ");
}

/**
 * SQL: `LEFT JOIN uploaded_images <alias>` on the upload key at the end of the URL in `urlSql`,
 * so that a read path (cart, checkout and order lines, feature images) selects `<alias>.width` and
 * `<alias>.height` in the same query; both are NULL for anything that is not a processed upload.
 */
export function uploadedImageJoinSql(urlSql: string, alias: string): string {
  return `LEFT JOIN uploaded_images ${alias}
         ON ${alias}.key = substring(${urlSql} from '([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\\.[a-z0-9]{2,5})$')`;
}

/**
 * Screens denser than 2× and the factor that brings each back to about 2×, densest first: 3× and above (most
 * phones: 3 → 2, 3.5 → 2.33), then 2.5× and above (2.625 → 2.1, 2.75 → 2.2). On a 3× phone a picture at 2× is
 * as sharp to the eye at arm's length, and a third to half of the bytes
 * (docs/decisions/0023-phone-pictures-and-product-page-paint.md).
 */
const DENSITY_TIERS = [
  ["3dppx", "2 / 3"],
  ["2.5dppx", "0.8"],
] as const;

/**
 * The `sizes` attribute of a picture whose rendered width is `sizes` (as the layout's CSS gives it), with the
 * density capped at 2×: before each entry come its forms for the denser screens, its width scaled down by the
 * tier's factor, so that the browser, which multiplies `sizes` by the screen's density, picks the width a 2×
 * screen would. A screen of 2× or less matches none of them and gets `sizes` unchanged. Media conditions are
 * `(feature: value)` joined by `and`, as the shop's layouts write them.
 */
export function pictureSizes(sizes: string): string {
  return sizes
    .split(/,\s*(?![^()]*\))/)
    .flatMap((entry) => {
      const [, media = "", length = ""] = /^((?:\([^()]*\)\s*(?:and\s+)?)*)(.+)$/.exec(entry.trim()) ?? [];
      // "calc(50vw - 22px)" scales as "calc((50vw - 22px) * f)", anything else as "calc(<length> * f)".
      const scalable = length.startsWith("calc(") ? length.slice(4) : length;
      return [
        ...DENSITY_TIERS.map(
          ([resolution, factor]) =>
            `${media}${media ? "and " : ""}(min-resolution: ${resolution}) calc(${scalable} * ${factor})`,
        ),
        `${media}${length}`,
      ];
    })
    .join(", ");
}
