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
 * Above this many device pixels per CSS pixel a picture is fetched as if the screen had this density:
 * on a 3× phone a picture at 2× is as sharp to the eye at arm's length, and a third of the bytes
 * (docs/decisions/0023-phone-pictures-and-product-page-paint.md).
 */
export const MAX_PICTURE_DENSITY = 2;

/**
 * Screens denser than MAX_PICTURE_DENSITY, from the densest, and the factor that brings each back to about
 * 2×: 3× and above (most phones: 3 → 2, 3.5 → 2.33), then 2.5× and above (2.625 → 2.1, 2.75 → 2.2).
 */
const DENSITY_TIERS = [
  { resolution: "3dppx", factor: "2 / 3" },
  { resolution: "2.5dppx", factor: "0.8" },
] as const;

/** `sizes`' entries split at the commas that are not inside parentheses (`min(50vw, 600px)`). */
function sizesEntries(sizes: string): string[] {
  const entries: string[] = [];
  let depth = 0;
  let start = 0;
  for (let index = 0; index < sizes.length; index += 1) {
    const character = sizes[index];
    if (character === "(") depth += 1;
    else if (character === ")") depth -= 1;
    else if (character === "," && depth === 0) {
      entries.push(sizes.slice(start, index).trim());
      start = index + 1;
    }
  }
  entries.push(sizes.slice(start).trim());
  return entries.filter(Boolean);
}

/** One `sizes` entry as its media condition (empty for the last, unconditional one) and its length. */
function splitSizesEntry(entry: string): { media: string; length: string } | null {
  if (!entry.endsWith(")")) {
    const space = entry.lastIndexOf(" ");
    return { media: entry.slice(0, space + 1).trim(), length: entry.slice(space + 1) };
  }
  // A function as the length (calc(), min()): from its name to the parenthesis that closes it.
  let depth = 0;
  let index = entry.length - 1;
  for (; index >= 0; index -= 1) {
    if (entry[index] === ")") depth += 1;
    else if (entry[index] === "(" && --depth === 0) break;
  }
  const name = /[a-z-]*$/.exec(entry.slice(0, Math.max(index, 0)))![0];
  // Parentheses with no function name before them are a media condition, not a length: nothing to scale.
  if (!name) return null;
  const start = index - name.length;
  return { media: entry.slice(0, start).trim(), length: entry.slice(start) };
}

/**
 * The `sizes` attribute of a picture whose rendered width is `sizes` (as the layout's CSS gives it), with the
 * density capped at MAX_PICTURE_DENSITY: on a denser screen each width is scaled down by its tier's factor, so
 * the browser, which multiplies `sizes` by the screen's density, picks the width a 2× screen would. A screen of
 * 2× or less gets `sizes` unchanged.
 */
export function pictureSizes(sizes: string): string {
  return sizesEntries(sizes)
    .flatMap((entry) => {
      const split = splitSizesEntry(entry);
      if (!split) return [entry];
      const { media, length } = split;
      // "calc(50vw - 22px)" scales as "calc((50vw - 22px) * f)", anything else as "calc(<length> * f)".
      const scalable = length.startsWith("calc(") ? length.slice(4) : length;
      const condition = / or |^not /.test(media) ? `(${media})` : media;
      return [
        ...DENSITY_TIERS.map(
          ({ resolution, factor }) =>
            `${condition ? `${condition} and ` : ""}(min-resolution: ${resolution}) calc(${scalable} * ${factor})`,
        ),
        media ? `${media} ${length}` : length,
      ];
    })
    .join(", ");
}
