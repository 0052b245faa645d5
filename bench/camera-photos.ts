import { randomBytes } from "node:crypto";
import sharp from "sharp";

/**
 * The camera photos the page-weight bench uploads and the image-quality study encodes, made at run time
 * (never stored in the repository): 2400×3200 JPEGs of about 1 MB.
 */

/** A camera-sized "dense" photo: random colour fields with fine grain, JPEG, about 1 MB. */
export async function densePhoto(): Promise<Buffer> {
  const [width, height] = [2400, 3200];
  const coarse = await sharp(randomBytes(120 * 160 * 3), { raw: { width: 120, height: 160, channels: 3 } })
    .resize(width, height, { kernel: "cubic" })
    .raw()
    .toBuffer();
  const grain = randomBytes(coarse.length);
  for (let index = 0; index < coarse.length; index += 1) {
    coarse[index] = Math.max(0, Math.min(255, coarse[index]! + (grain[index]! & 7) - 4));
  }
  return sharp(coarse, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 82 })
    .toBuffer();
}

/**
 * A camera-sized "photo-like" photo: a garment on a backdrop, lit by gradients, with detail at every scale
 * (folds, fabric, grain), weaker the finer as in a natural photo; JPEG, about 1.2 MB.
 */
export async function photoLikePhoto(index: number): Promise<Buffer> {
  const hue = (index * 47) % 360;
  const [width, height] = [2400, 3200];
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
  <defs>
    <linearGradient id="bg" x1="0" y1="0" x2="0.3" y2="1"><stop offset="0" stop-color="hsl(${hue + 30},12%,88%)"/><stop offset="1" stop-color="hsl(${hue + 30},10%,62%)"/></linearGradient>
    <radialGradient id="light" cx="0.35" cy="0.3" r="0.8"><stop offset="0" stop-color="hsl(${hue},55%,55%)"/><stop offset="1" stop-color="hsl(${hue},50%,22%)"/></radialGradient>
  </defs>
  <rect width="100%" height="100%" fill="url(#bg)"/>
  <ellipse cx="1200" cy="3300" rx="1500" ry="300" fill="rgba(0,0,0,0.18)"/>
  <path d="M700 500 Q1200 380 1700 500 L2050 900 L1850 1150 L1750 1050 L1780 2900 Q1200 3000 620 2900 L650 1050 L550 1150 L350 900 Z" fill="url(#light)"/>
  <path d="M1000 480 Q1200 700 1400 480" stroke="hsl(${hue},40%,15%)" stroke-width="26" fill="none"/>
  <line x1="1200" y1="640" x2="1200" y2="2950" stroke="hsl(${hue},40%,18%)" stroke-width="14"/>
  ${Array.from({ length: 9 }, (_, i) => `<circle cx="1240" cy="${800 + i * 240}" r="26" fill="hsl(${hue},10%,80%)"/>`).join("")}
</svg>`;
  const base = await sharp(Buffer.from(svg)).removeAlpha().raw().toBuffer();
  // Detail at every scale, weaker the finer (a natural photo's 1/f spectrum): folds, fabric, grain.
  const octaves: [number, number][] = [
    [30, 48],
    [120, 24],
    [480, 12],
    [2400, 6],
  ];
  const layers = await Promise.all(
    octaves.map(async ([columns, amplitude]) => {
      const rows = (columns * height) / width;
      const field = await sharp(randomBytes(columns * rows), {
        raw: { width: columns, height: rows, channels: 1 },
      })
        .resize(width, height, { kernel: "cubic" })
        .raw()
        .toBuffer();
      return { field, amplitude };
    }),
  );
  for (let pixel = 0, index = 0; pixel < width * height; pixel += 1) {
    let detail = 0;
    for (const { field, amplitude } of layers) detail += ((field[pixel]! - 127.5) / 127.5) * amplitude;
    for (let channel = 0; channel < 3; channel += 1, index += 1) {
      base[index] = Math.max(0, Math.min(255, base[index]! + detail));
    }
  }
  return sharp(base, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 80 })
    .toBuffer();
}
