import { readFile } from "node:fs/promises";
import path from "node:path";
import { QueryTypes, type Transaction } from "sequelize";
import { getDb } from "~/models/db.server";
import { getStorage } from "~/lib/server/storage.server";
import type { FieldErrors } from "~/lib/server/errors.server";
import { pictureName, type ProductImageInput } from "~/lib/shared/product-schema";
import { colourLabel } from "~/lib/shared/variants";
import { uploadExists } from "./uploads.server";

/**
 * A product's gallery on the write side (docs/decisions/0018-product-gallery.md):
 * which pictures an admin may name, their sizes, and the rows of
 * `product_images`, always replaced as a whole inside the product's
 * transaction (the product row locked first, then its variants, then these).
 */

/** A picture as it is written: its URL as the database keeps it, and its size when the shop knows it. */
export interface GalleryPicture {
  url: string;
  alt: string;
  colour: string | null;
  width: number | null;
  height: number | null;
}

const DRAWING_PATH = /^\/images\/[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*\.(svg|png|jpe?g|gif|webp|bmp)$/;

/** The width and height an SVG declares in pixels, or null (the migration's reading). */
function declaredSvgSize(text: string): { width: number; height: number } | null {
  const tag = /<svg\b[^>]*>/i.exec(text)?.[0];
  const width = tag && /\swidth="(\d+)(?:px)?"/.exec(tag)?.[1];
  const height = tag && /\sheight="(\d+)(?:px)?"/.exec(tag)?.[1];
  return width && height ? { width: Number(width), height: Number(height) } : null;
}

type ShopFile = { exists: boolean; size: { width: number; height: number } | null };
/** public/ is part of the release: each file is read once per process. */
const shopFiles = new Map<string, Promise<ShopFile>>();

/** Whether a /images path is one of the shop's files, and its declared size (SVG drawings). */
function shopFile(url: string): Promise<ShopFile> {
  let known = shopFiles.get(url);
  if (!known) {
    const file = path.join(process.cwd(), "public", url);
    known = url.endsWith(".svg")
      ? readFile(file, "utf8").then(
          (text) => ({ exists: true, size: declaredSvgSize(text) }),
          () => ({ exists: false, size: null }),
        )
      : readFile(file).then(
          () => ({ exists: true, size: null }),
          () => ({ exists: false, size: null }),
        );
    shopFiles.set(url, known);
  }
  return known;
}

const pictureNotServed = (index: number) =>
  `${pictureName(index)}: this picture was not uploaded to the shop: upload it again`;

/**
 * The size written with a picture: an upload's comes from `uploaded_images`
 * when it is read (null here), a drawing's from its file; another site's is unknown.
 */
async function pictureSize(url: string): Promise<{ width: number; height: number } | null> {
  return DRAWING_PATH.test(url) ? (await shopFile(url)).size : null;
}

/**
 * Checks that every picture is one this shop served: an upload that is still
 * in the storage, or one of the shop's own /images files. Asks the storage, so
 * it runs before the transaction. Errors go into `errors` (`images.2.url`).
 */
export async function checkPicturesServed(
  pictures: readonly ProductImageInput[],
  errors: FieldErrors,
): Promise<GalleryPicture[]> {
  const storage = getStorage();
  return Promise.all(
    pictures.map(async (picture, index) => {
      const served = storage.keyOf(picture.url)
        ? await uploadExists(picture.url)
        : DRAWING_PATH.test(picture.url) && (await shopFile(picture.url)).exists;
      if (!served) (errors[`images.${index}.url`] ??= []).push(pictureNotServed(index));
      const size = served ? await pictureSize(picture.url) : null;
      return { ...picture, width: size?.width ?? null, height: size?.height ?? null };
    }),
  );
}

const pictureColourMessage = (index: number, colour: string, colours: readonly string[]) =>
  colours.length
    ? `${pictureName(index)}: ${colourLabel(colour)} is not one of this product's colours (${colours.map(colourLabel).join(", ")})`
    : `${pictureName(index)}: this product comes in no colours: leave the colour empty`;

/** Each picture's colour must be one the product's variants have (or none). */
export function checkPictureColours(
  pictures: readonly { colour: string | null }[],
  colours: readonly (string | null)[],
  errors: FieldErrors,
): void {
  const own = [...new Set(colours.filter((colour): colour is string => colour !== null))];
  pictures.forEach((picture, index) => {
    if (picture.colour !== null && !own.includes(picture.colour))
      (errors[`images.${index}.colour`] ??= []).push(pictureColourMessage(index, picture.colour, own));
  });
}

/** The product's pictures in order, locked (the last lock of a product's write). */
export async function lockedPictures(productId: string, transaction: Transaction): Promise<GalleryPicture[]> {
  const rows = await getDb().sequelize.query<GalleryPicture & { id: string; position: number }>(
    `SELECT id, position, url, alt, colour, width, height FROM product_images
      WHERE product_id = :productId ORDER BY id FOR UPDATE`,
    { replacements: { productId }, type: QueryTypes.SELECT, transaction },
  );
  return rows
    .sort((a, b) => a.position - b.position)
    .map(({ url, alt, colour, width, height }) => ({ url, alt, colour, width, height }));
}

/**
 * Makes the product's gallery `pictures`, in order: the rows are deleted and
 * written again (the positions' uniqueness is checked at commit, and the
 * trigger sets `products.image` to the first one then).
 */
export async function writePictures(
  productId: string,
  pictures: readonly GalleryPicture[],
  transaction: Transaction,
): Promise<void> {
  const { sequelize } = getDb();
  await sequelize.query(`DELETE FROM product_images WHERE product_id = :productId`, {
    replacements: { productId },
    transaction,
  });
  if (pictures.length === 0) return;
  await sequelize.query(
    `INSERT INTO product_images (product_id, position, url, alt, colour, width, height)
     SELECT $1::uuid, t.position - 1, t.url, t.alt, t.colour, t.width, t.height
       FROM unnest($2::text[], $3::text[], $4::text[], $5::int[], $6::int[]) WITH ORDINALITY
            AS t(url, alt, colour, width, height, position)`,
    {
      bind: [
        productId,
        pictures.map((picture) => picture.url),
        pictures.map((picture) => picture.alt),
        pictures.map((picture) => picture.colour),
        pictures.map((picture) => picture.width),
        pictures.map((picture) => picture.height),
      ],
      transaction,
    },
  );
}

/**
 * The gallery after an edit that sent no `images`: an `image` that differs
 * from the first picture takes its place and the others stay (a client of
 * the spec resends the whole product with its `image`; it must not wipe the
 * pictures it never knew of). A picture whose colour the product no longer
 * has keeps its place without a colour.
 */
export function galleryWithImage(
  current: readonly GalleryPicture[],
  image: GalleryPicture,
  colours: readonly (string | null)[],
): GalleryPicture[] {
  const kept = current.map((picture) =>
    picture.colour !== null && !colours.includes(picture.colour) ? { ...picture, colour: null } : picture,
  );
  if (kept[0]?.url === image.url) return kept;
  return [image, ...kept.slice(1).filter((picture) => picture.url !== image.url)];
}

/** A picture named only by its URL (the spec's `image`): no alt text, no colour, its size when known. */
export async function pictureOfImage(url: string): Promise<GalleryPicture> {
  const size = await pictureSize(url);
  return { url, alt: "", colour: null, width: size?.width ?? null, height: size?.height ?? null };
}
