import { loadavg } from "node:os";
import sharp, { type AvifOptions, type WebpOptions } from "sharp";
import { densePhoto, photoLikePhoto } from "./camera-photos";
import { machineTicks, stealPercent } from "./proc-cpu";

/**
 * `npx tsx bench/image-quality.ts`: bytes against fidelity for the encoder settings the pipeline could use
 * (docs/decisions/0023-phone-pictures-and-product-page-paint.md). For one photo of each of the page-weight
 * bench's sets (camera-photos.ts), each width is resized from the photo as the pipeline does and encoded with
 * each setting; the result is decoded and compared with the resized pixels it came from (SSIM on 8×8 windows,
 * step 4, on luma and on the two chroma planes). On one core, as the pipeline runs. On demand, never in CI.
 */

sharp.concurrency(1);
sharp.cache(false);

const WIDTHS = (process.env.QUALITY_WIDTHS ?? "400,640,800,1280").split(",").map(Number);

type Setting =
  | { name: string; format: "avif"; options: AvifOptions }
  | { name: string; format: "webp"; options: WebpOptions };
const SETTINGS: Setting[] = [
  { name: "avif q55 e0 4:4:4", format: "avif", options: { quality: 55, effort: 0 } },
  { name: "avif q55 e2 4:4:4", format: "avif", options: { quality: 55, effort: 2 } },
  { name: "avif q50 e2 4:4:4", format: "avif", options: { quality: 50, effort: 2 } },
  {
    name: "avif q55 e2 4:2:0",
    format: "avif",
    options: { quality: 55, effort: 2, chromaSubsampling: "4:2:0" },
  },
  { name: "avif q55 e3 4:4:4", format: "avif", options: { quality: 55, effort: 3 } },
  { name: "avif q50 e3 4:4:4", format: "avif", options: { quality: 50, effort: 3 } },
  { name: "avif q55 e4 4:4:4", format: "avif", options: { quality: 55, effort: 4 } },
  { name: "webp q82 e0", format: "webp", options: { quality: 82, effort: 0 } },
  { name: "webp q82 e2", format: "webp", options: { quality: 82, effort: 2 } },
  { name: "webp q75 e2", format: "webp", options: { quality: 75, effort: 2 } },
];

/** Y, Cb, Cr planes (BT.601, full range) of interleaved RGB pixels. */
function planes(rgb: Buffer, pixels: number): [Float32Array, Float32Array, Float32Array] {
  const y = new Float32Array(pixels);
  const cb = new Float32Array(pixels);
  const cr = new Float32Array(pixels);
  for (let pixel = 0; pixel < pixels; pixel += 1) {
    const [r, g, b] = [rgb[pixel * 3]!, rgb[pixel * 3 + 1]!, rgb[pixel * 3 + 2]!];
    y[pixel] = 0.299 * r + 0.587 * g + 0.114 * b;
    cb[pixel] = 128 - 0.168736 * r - 0.331264 * g + 0.5 * b;
    cr[pixel] = 128 + 0.5 * r - 0.418688 * g - 0.081312 * b;
  }
  return [y, cb, cr];
}

/** Mean SSIM of two planes over 8×8 windows every 4 pixels (Wang et al. 2004, 8-bit constants). */
function ssim(a: Float32Array, b: Float32Array, width: number, height: number): number {
  const [c1, c2] = [(0.01 * 255) ** 2, (0.03 * 255) ** 2];
  let total = 0;
  let windows = 0;
  for (let top = 0; top + 8 <= height; top += 4) {
    for (let left = 0; left + 8 <= width; left += 4) {
      let [sumA, sumB, sumAA, sumBB, sumAB] = [0, 0, 0, 0, 0];
      for (let row = top; row < top + 8; row += 1) {
        for (let column = left; column < left + 8; column += 1) {
          const [x, y] = [a[row * width + column]!, b[row * width + column]!];
          sumA += x;
          sumB += y;
          sumAA += x * x;
          sumBB += y * y;
          sumAB += x * y;
        }
      }
      const [meanA, meanB] = [sumA / 64, sumB / 64];
      const varianceA = sumAA / 64 - meanA * meanA;
      const varianceB = sumBB / 64 - meanB * meanB;
      const covariance = sumAB / 64 - meanA * meanB;
      total +=
        ((2 * meanA * meanB + c1) * (2 * covariance + c2)) /
        ((meanA * meanA + meanB * meanB + c1) * (varianceA + varianceB + c2));
      windows += 1;
    }
  }
  return total / windows;
}

const ticks = machineTicks();
const load = loadavg()[0]!.toFixed(2);
console.log(`| photos | width | setting | bytes | SSIM luma | SSIM chroma | encode |`);
console.log(`| --- | --- | --- | --- | --- | --- | --- |`);
for (const [label, photo] of [
  ["dense", await densePhoto()],
  ["photo-like", await photoLikePhoto(0)],
] as const) {
  for (const width of WIDTHS) {
    const reference = await sharp(photo)
      .resize({ width })
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const { height } = reference.info;
    const [refY, refCb, refCr] = planes(reference.data, width * height);
    for (const setting of SETTINGS) {
      const source = () => sharp(reference.data, { raw: { width, height, channels: 3 } });
      const started = performance.now();
      const encoded =
        setting.format === "avif"
          ? await source().avif(setting.options).toBuffer()
          : await source().webp(setting.options).toBuffer();
      const encodeMs = performance.now() - started;
      const decoded = await sharp(encoded).removeAlpha().raw().toBuffer();
      const [y, cb, cr] = planes(decoded, width * height);
      const luma = ssim(refY, y, width, height);
      const chroma = (ssim(refCb, cb, width, height) + ssim(refCr, cr, width, height)) / 2;
      console.log(
        `| ${label} | ${width} | ${setting.name} | ${(encoded.length / 1024).toFixed(1)} KB | ${luma.toFixed(4)} | ${chroma.toFixed(4)} | ${encodeMs.toFixed(0)} ms |`,
      );
    }
  }
}
const steal = stealPercent(ticks, machineTicks());
console.log(`\nload average ${load} before; steal ${steal === null ? "n/a" : `${steal.toFixed(1)} %`}`);
