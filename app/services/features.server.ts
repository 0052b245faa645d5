import { featureInputSchema } from "~/lib/admin-schemas";
import { getDb } from "~/lib/db.server";
import { badRequest, notFound } from "~/lib/errors.server";
import { canonicalImageReference } from "~/lib/public-url.server";
import { fieldErrorsOf } from "~/lib/schemas";
import { isUuid } from "~/lib/session.server";
import { deleteUploadIfUnused, uploadExists } from "./uploads.server";

/** The home page's feature images (banners): list, add (an uploaded image), delete. */

export interface FeatureJson {
  _id: string;
  image: string;
}

export const FEATURE_NOT_FOUND = "Feature image not found";
export const FEATURE_ADDED = "Feature image added successfully";
export const FEATURE_DELETED = "Feature image deleted successfully";

/**
 * Oldest first: the order in which they were added is the banner's order.
 * `limit` caps the list (the home banner shows a handful).
 */
export async function listFeatures(limit?: number): Promise<FeatureJson[]> {
  const rows = await getDb().models.FeatureImage.findAll({
    attributes: ["id", "image"],
    order: [
      ["createdAt", "ASC"],
      ["id", "ASC"],
    ],
    limit,
    raw: true,
  });
  return rows.map((row) => ({ _id: row.id, image: row.image }));
}

/** Adds a feature image; `image` must be one that this shop served (upload first). */
export async function addFeature(input: Record<string, unknown>): Promise<FeatureJson> {
  const parsed = featureInputSchema.safeParse({ image: canonicalImageReference(input.image) });
  if (!parsed.success) throw badRequest("Please upload an image first", fieldErrorsOf(parsed.error));
  if (!(await uploadExists(parsed.data.image))) {
    throw badRequest("Please upload an image first", {
      image: ["This image was not uploaded to the shop: upload it again"],
    });
  }
  const row = await getDb().models.FeatureImage.create({ image: parsed.data.image });
  return { _id: row.id, image: row.image };
}

export async function deleteFeature(id: string): Promise<void> {
  if (!isUuid(id)) throw notFound(FEATURE_NOT_FOUND);
  const { FeatureImage } = getDb().models;
  const row = await FeatureImage.findByPk(id, { attributes: ["id", "image"], raw: true });
  if (!row) throw notFound(FEATURE_NOT_FOUND);
  await FeatureImage.destroy({ where: { id } });
  await deleteUploadIfUnused(row.image);
}
