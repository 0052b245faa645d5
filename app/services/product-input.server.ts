import type { ProductInput } from "~/lib/shared/product";
import { productInputSchema, readProductImages, type ProductImageInput } from "~/lib/shared/product-schema";
import { badRequest, type FieldErrors } from "~/lib/server/errors.server";
import { isCategory, type Category } from "~/lib/shared/catalog-options";
import {
  checkVariants,
  variantInputSchema,
  VARIANTS_COUNT_MESSAGE,
  type VariantInput,
} from "~/lib/shared/variant-schema";
import { MAX_VARIANTS } from "~/lib/shared/variants";
import { canonicalImageReference } from "~/lib/server/public-url.server";
import { fieldErrorsOf } from "~/lib/shared/schemas";
import { uploadExists } from "./uploads.server";
import { checkPictureColours, checkPicturesServed, type GalleryPicture } from "./product-gallery.server";

/**
 * A product as the admin sends it (the form or the JSON API), judged by
 * API.md's rules before anything is written: its own fields, its sizes and
 * colours, its pictures.
 */

export const INVALID_PRODUCT_MESSAGE = "Please check the highlighted fields";

/** A validated product: its own fields and, when the input named them, its sizes and colours and its pictures. */
export interface ValidProduct {
  product: ProductInput;
  /** In the input's order, sizes spelt as the scale does; null when the input had no `variants`. */
  variants: VariantInput[] | null;
  /** In the input's order, each one this shop served; null when the input had no `images`. */
  images: GalleryPicture[] | null;
}

export const hasOwn = (record: Record<string, unknown>, key: string) =>
  Object.prototype.hasOwnProperty.call(record, key) && record[key] !== undefined;

/** `images` with each URL as the database keeps it (this shop's absolute URLs become paths). */
function canonicalPictures(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  return value.map((item: unknown) =>
    item !== null && typeof item === "object" && !Array.isArray(item) && "url" in item
      ? { ...item, url: canonicalImageReference((item as { url: unknown }).url) }
      : item,
  );
}

/** A refusal whose errors all concern the pictures says the first of them ("Picture 3: …"). */
export function invalidProduct(errors: FieldErrors) {
  const keys = Object.keys(errors);
  const aboutPictures = keys.length > 0 && keys.every((key) => key === "images" || key.startsWith("images."));
  return badRequest(aboutPictures ? errors[keys[0]!]![0]! : INVALID_PRODUCT_MESSAGE, errors);
}

/**
 * Validates any input (JSON or form) against API.md's rules; throws 400 with field errors.
 * The absolute URL of an image on this shop is taken as the path the database keeps.
 * With `variants`, the product's stock is their sum (a `totalStock` beside them is not read).
 * With `images`, `image` is the first picture's URL, and a picture's colour must be one of
 * the variants' (those sent, else `currentColours`: the product's, or none for a new one).
 */
export async function validateProductInput(
  input: unknown,
  currentColours: readonly (string | null)[] = [],
): Promise<ValidProduct> {
  const record = input !== null && typeof input === "object" ? (input as Record<string, unknown>) : null;
  let candidate: unknown = input;
  let variants: VariantInput[] | null = null;
  let items: (VariantInput | null)[] | null = null;
  let pictures: ProductImageInput[] | null = null;
  const errors: FieldErrors = {};
  if (record) {
    candidate = "image" in record ? { ...record, image: canonicalImageReference(record.image) } : record;
    if (hasOwn(record, "variants")) {
      items = readVariantItems(record.variants, errors);
      const stock = (items ?? []).reduce((sum, variant) => sum + (variant?.totalStock ?? 0), 0);
      candidate = { ...(candidate as Record<string, unknown>), totalStock: stock };
    }
    if (hasOwn(record, "images")) {
      pictures = readProductImages(canonicalPictures(record.images), errors);
      // The spec's `image` is the first picture, whatever else was sent beside the list.
      if (pictures) candidate = { ...(candidate as Record<string, unknown>), image: pictures[0]!.url };
    }
  }
  const parsed = productInputSchema.safeParse(candidate);
  if (!parsed.success) Object.assign(errors, fieldErrorsOf(parsed.error));
  // With a list that was refused, `image` (its first picture) has been said to be wrong already.
  if (record && hasOwn(record, "images") && !pictures) delete errors.image;
  if (items) {
    const category = parsed.success ? parsed.data.category : categoryOf(record?.category);
    const checked = checkVariants(items, category);
    Object.assign(errors, checked.errors);
    variants = checked.variants.filter((variant): variant is VariantInput => variant !== null);
  }
  if (pictures)
    checkPictureColours(
      pictures,
      variants ? variants.map((variant) => variant.colour) : currentColours,
      errors,
    );
  if (Object.keys(errors).length || !parsed.success) throw invalidProduct(errors);
  if (pictures) {
    const images = await checkPicturesServed(pictures, errors);
    if (Object.keys(errors).length) throw invalidProduct(errors);
    return { product: parsed.data, variants, images };
  }
  if (!(await uploadExists(parsed.data.image))) {
    throw badRequest(INVALID_PRODUCT_MESSAGE, {
      image: ["This image was not uploaded to the shop: upload it again"],
    });
  }
  return { product: parsed.data, variants, images: null };
}

/**
 * The list's own rule (1 to 60) and each entry's, one by one, so that the
 * entries that pass are still checked against the category and each other.
 * A failed entry is null; its errors go into `errors`.
 */
function readVariantItems(value: unknown, errors: FieldErrors): (VariantInput | null)[] | null {
  if (!Array.isArray(value) || value.length < 1 || value.length > MAX_VARIANTS) {
    errors.variants = [VARIANTS_COUNT_MESSAGE];
    return null;
  }
  return value.map((item: unknown, index) => {
    const entry = variantInputSchema.safeParse(item);
    if (entry.success) return entry.data;
    for (const issue of entry.error.issues)
      (errors[["variants", index, ...issue.path].join(".")] ??= []).push(issue.message);
    return null;
  });
}

function categoryOf(value: unknown): Category | null {
  return isCategory(value) ? value : null;
}
