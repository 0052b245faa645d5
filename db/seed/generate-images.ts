// Writes the demo catalogue artwork into public/images.
// Usage: npx tsx db/seed/generate-images.ts

import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { bannerSvg, productSvg } from "./art.js";
import { BANNER_TEXTS, DEMO_FEATURES, DEMO_PRODUCTS } from "./catalog.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const publicDir = path.join(root, "public");

function target(urlPath: string): string {
  const file = path.join(publicDir, ...urlPath.split("/").filter(Boolean));
  if (!file.startsWith(publicDir + path.sep)) throw new Error(`image path escapes public/: ${urlPath}`);
  return file;
}

async function write(urlPath: string, svg: string): Promise<number> {
  const file = target(urlPath);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, svg, "utf8");
  return Buffer.byteLength(svg);
}

async function main(): Promise<void> {
  let largest = 0;
  for (const product of DEMO_PRODUCTS) {
    largest = Math.max(largest, await write(product.image, productSvg(product)));
  }
  for (const [index, feature] of DEMO_FEATURES.entries()) {
    const text = BANNER_TEXTS[index] ?? { heading: feature.alt, sub: "" };
    largest = Math.max(largest, await write(feature.image, bannerSvg(index + 1, text)));
  }
  console.log(
    `Wrote ${DEMO_PRODUCTS.length} product images and ${DEMO_FEATURES.length} banners to ${publicDir} ` +
      `(largest ${largest} bytes).`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
