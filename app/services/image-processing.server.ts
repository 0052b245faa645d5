import sharp, { type Metadata, type OutputInfo, type Sharp } from "sharp";
import { AppError, badRequest } from "~/lib/server/errors.server";
import { IMAGE_FORMATS, widthsFor, type ImageFormat } from "~/lib/shared/images";
import { getImageQueue } from "./image-queue.server";

/**
 * The image pipeline (docs/decisions/0013-image-pipeline.md): every raster
 * upload is decoded once, turned upright by its EXIF orientation, stripped of
 * all metadata and stored again in its own format, plus AVIF and WebP widths
 * (lib/shared/images.ts) under keys derived from its own. A row in
 * uploaded_images records what was done.
 */

/** Above this many pixels (a 8000×5000 photo) an image is refused before a byte of it is decoded. */
export const MAX_INPUT_PIXELS = 40_000_000;
export const TOO_MANY_PIXELS_MESSAGE =
  "The image is too large: at most 40 megapixels (for example 8000×5000)";
export const UNREADABLE_IMAGE_MESSAGE =
  "The image could not be read: the file is damaged or incomplete. Please upload it again.";

// libvips defaults to one thread per core and a large operation cache: one
// image at a time on one thread leaves the other core to the storefront, and
// nothing is kept once an image is done.
sharp.concurrency(1);
sharp.cache(false);

/**
 * Encoder settings: close to the eye's threshold, fast enough to stay inside the upload request (a 4000×3000
 * photo in about 2 s, bench/images.ts). Effort goes where phones look: the card widths (up to CARD_WIDTH) get
 * AVIF effort 3, about 20 % smaller than effort 2 at the same quality setting and closer to the source; the
 * widths up to PHONE_WIDTH effort 2; wider ones effort 0, where effort costs seconds per image (AVIF effort 2
 * at 2560 pixels: about 3 s on one core) for a few percent (bench/image-quality.ts, docs/decisions/0023).
 */
const CARD_WIDTH = 400;
const PHONE_WIDTH = 640;
const ENCODE = {
  jpeg: { quality: 88 },
  png: { compressionLevel: 6 },
  webp: { quality: 82, effort: 0 },
  avif: { quality: 55, effort: 0 },
  webpPhone: { quality: 82, effort: 2 },
  avifPhone: { quality: 55, effort: 2 },
  avifCard: { quality: 55, effort: 3 },
} as const;

export interface ProcessedImage {
  /** The upload to store at its key: metadata-free, upright (or the sanitised bytes kept as they are). */
  original: Uint8Array;
  width: number | null;
  height: number | null;
  widths: { width: number; format: ImageFormat; data: Uint8Array }[];
}

/* ------------------------------------------------------------ processing */

const unreadable = () => badRequest(UNREADABLE_IMAGE_MESSAGE);
const tooManyPixels = () => new AppError(413, TOO_MANY_PIXELS_MESSAGE);

/**
 * Reads only the header (sharp's metadata decodes no pixels) and refuses an
 * image whose declared size is above the limit: a 50000×50000 PNG of a few
 * kilobytes never gets to allocate its 10 GB.
 */
export async function checkImageHeader(bytes: Uint8Array): Promise<{ animated: boolean }> {
  let metadata: Metadata;
  try {
    metadata = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw unreadable();
  }
  const { width, height, pages = 1 } = metadata;
  const frameHeight = metadata.pageHeight ?? height;
  if (!width || !height || !frameHeight) throw unreadable();
  if (width * frameHeight * pages > MAX_INPUT_PIXELS) throw tooManyPixels();
  return { animated: pages > 1 };
}

type RasterExtension = "jpg" | "png" | "gif" | "webp";

/** Whether the pipeline decodes this type (libvips reads no BMP; an SVG stays a vector). */
export function isProcessedRaster(extension: string): extension is RasterExtension {
  return extension === "jpg" || extension === "png" || extension === "gif" || extension === "webp";
}

function encodeAs(image: Sharp, extension: RasterExtension): Sharp {
  switch (extension) {
    case "jpg":
      return image.jpeg(ENCODE.jpeg);
    case "png":
      return image.png(ENCODE.png);
    case "webp":
      return image.webp(ENCODE.webp);
    case "gif":
      return image.gif();
  }
}

function encodeWidth(image: Sharp, format: ImageFormat, width: number): Sharp {
  if (format === "webp") return image.webp(width <= PHONE_WIDTH ? ENCODE.webpPhone : ENCODE.webp);
  return image.avif(
    width <= CARD_WIDTH ? ENCODE.avifCard : width <= PHONE_WIDTH ? ENCODE.avifPhone : ENCODE.avif,
  );
}

/** The pixels of an image, upright, sRGB, decoded once (a damaged file or one above the pixel limit refused). */
export async function decodeUpright(bytes: Uint8Array): Promise<{ data: Buffer; info: OutputInfo }> {
  const input = { limitInputPixels: MAX_INPUT_PIXELS, failOn: "warning" } as const;
  try {
    return await sharp(bytes, input)
      .rotate()
      .toColourspace("srgb")
      .raw()
      .toBuffer({ resolveWithObject: true });
  } catch (error) {
    if (/pixel limit/i.test((error as Error).message)) throw tooManyPixels();
    throw unreadable();
  }
}

/** `targets` (widths no wider than the pixels) encoded in every format, widest first. */
export async function encodeWidths(
  pixels: { data: Buffer; info: OutputInfo },
  targets: readonly number[],
): Promise<ProcessedImage["widths"]> {
  const raw = ({ data, info }: { data: Buffer; info: OutputInfo }) =>
    sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
  const widths: ProcessedImage["widths"] = [];
  for (const target of [...targets].sort((a, b) => b - a)) {
    // Resized once for both formats: a resize of a camera photo costs as much as a small width's encode.
    const resized =
      target === pixels.info.width
        ? pixels
        : await raw(pixels).resize({ width: target }).raw().toBuffer({ resolveWithObject: true });
    for (const format of IMAGE_FORMATS) {
      widths.push({
        width: target,
        format,
        data: await encodeWidth(raw(resized), format, target).toBuffer(),
      });
    }
  }
  return widths;
}

/**
 * Decodes a raster image once (header checked first), turns it upright,
 * drops every piece of metadata (sharp writes none unless asked; colour is
 * converted to sRGB and the profile dropped) and encodes the original again
 * plus each width in each format. Alpha is kept. An animated GIF stays
 * animated as the original; its widths are stills of the first frame.
 * Runs in the caller's turn of the queue.
 */
export async function processRaster(bytes: Uint8Array, extension: RasterExtension): Promise<ProcessedImage> {
  const { animated } = await checkImageHeader(bytes);
  const pixels = await decodeUpright(bytes);
  const { width, height, channels } = pixels.info;
  const original =
    animated && extension === "gif"
      ? await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: "warning", animated: true })
          .gif()
          .toBuffer()
      : await encodeAs(sharp(pixels.data, { raw: { width, height, channels } }), extension).toBuffer();
  return { original, width, height, widths: await encodeWidths(pixels, widthsFor(width)) };
}

/** The pixel size a BMP header declares (kept as it is: libvips cannot decode BMP, and BMP carries no EXIF). */
export function bmpSize(bytes: Uint8Array): { width: number; height: number } | null {
  if (bytes.length < 26) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const core = view.getUint32(14, true) === 12;
  const width = core ? view.getUint16(18, true) : Math.abs(view.getInt32(18, true));
  const height = core ? view.getUint16(20, true) : Math.abs(view.getInt32(22, true));
  return width > 0 && height > 0 ? { width, height } : null;
}

/** An SVG's size as librsvg reads it from the (already sanitised) markup, when it declares one. */
async function svgSize(bytes: Uint8Array): Promise<{ width: number; height: number } | null> {
  try {
    const { width, height } = await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
    return width && height ? { width, height } : null;
  } catch {
    return null;
  }
}

/**
 * What to store for an upload of a detected type, in a turn of the queue for
 * the rasters. SVG (sanitised before) and BMP are kept as they are, with no
 * widths.
 */
export async function processUpload(
  bytes: Uint8Array,
  extension: string,
  options: { mayWait?: boolean } = {},
): Promise<ProcessedImage> {
  if (isProcessedRaster(extension)) {
    // Refused before taking a turn: a bomb or a non-image never waits for the queue.
    await checkImageHeader(bytes);
    return getImageQueue().run(() => processRaster(bytes, extension), options);
  }
  const size = extension === "bmp" ? bmpSize(bytes) : extension === "svg" ? await svgSize(bytes) : null;
  return { original: bytes, width: size?.width ?? null, height: size?.height ?? null, widths: [] };
}
