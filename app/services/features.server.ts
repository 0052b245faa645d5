import { QueryTypes } from "sequelize";
import { featureInputSchema } from "~/lib/shared/admin-schemas";
import { getConfig } from "~/lib/server/config.server";
import { getDb } from "~/models/db.server";
import { badRequest, notFound } from "~/lib/server/errors.server";
import { canonicalImageReference } from "~/lib/server/public-url.server";
import { fieldErrorsOf } from "~/lib/shared/schemas";
import { uploadedImageJoinSql } from "~/lib/shared/images";
import { isUuid } from "~/lib/shared/uuid";
import { deleteUploadIfUnused, uploadExists } from "./uploads.server";
import { changedFields, recordAudit, SYSTEM_CHANGE, type AuditBy } from "./audit.server";

/** The home page's feature images (banners): list, add (an uploaded image), delete. */

interface FeatureJson {
  _id: string;
  image: string;
  /** The banner's text and link; null means the home page's default. */
  title: string | null;
  subtitle: string | null;
  link: string | null;
}

interface FeatureRow {
  id: string;
  image: string;
  title: string | null;
  subtitle: string | null;
  link: string | null;
}

const toFeatureJson = (row: FeatureRow): FeatureJson => ({
  _id: row.id,
  image: row.image,
  title: row.title ?? null,
  subtitle: row.subtitle ?? null,
  link: row.link ?? null,
});

const FEATURE_NOT_FOUND = "Feature image not found";
export const FEATURE_ADDED = "Feature image added successfully";
export const FEATURE_DELETED = "Feature image deleted successfully";

/** A feature image as the pages show it: with its image's own size when it is a processed upload. */
export interface FeatureView extends FeatureJson {
  imageWidth: number | null;
  imageHeight: number | null;
}

/**
 * Oldest first: the order in which they were added is the banner's order.
 * `limit` caps the list (the home banner shows a handful).
 */
export async function listFeatureViews(limit?: number): Promise<FeatureView[]> {
  const rows = await getDb().sequelize.query<
    FeatureRow & { imageWidth: number | null; imageHeight: number | null }
  >(
    `SELECT f.id, f.image, f.title, f.subtitle, f.link, fi.width AS "imageWidth", fi.height AS "imageHeight"
       FROM feature_images f ${uploadedImageJoinSql("f.image", "fi")}
      ORDER BY f.created_at ASC, f.id ASC
      ${limit === undefined ? "" : "LIMIT :limit"}`,
    { replacements: { limit: limit ?? null }, type: QueryTypes.SELECT },
  );
  return rows.map((row) => ({
    ...toFeatureJson(row),
    imageWidth: row.imageWidth,
    imageHeight: row.imageHeight,
  }));
}

/** The feature images as the API answers them (API.md): listFeatureViews without the sizes. */
export async function listFeatures(limit?: number): Promise<FeatureJson[]> {
  return (await listFeatureViews(limit)).map(
    ({ imageWidth: _width, imageHeight: _height, ...feature }) => feature,
  );
}

/** An absolute URL on this shop's own origin becomes the path it names (with its query, for links). */
function ownPath(value: unknown, keepQuery = false): unknown {
  if (typeof value !== "string") return value;
  try {
    const url = new URL(value.trim());
    const own = new URL(getConfig().appUrl);
    if (url.origin !== own.origin) return value;
    return keepQuery ? `${url.pathname}${url.search}${url.hash}` : url.pathname;
  } catch {
    return value;
  }
}

/**
 * Adds a feature image; `image` must be one that this shop served (upload
 * first). `title`, `subtitle` and `link` (a path on the shop) are optional.
 */
export async function addFeature(
  input: Record<string, unknown>,
  by: AuditBy = SYSTEM_CHANGE,
): Promise<FeatureJson> {
  const parsed = featureInputSchema.safeParse({
    image: canonicalImageReference(input.image),
    title: input.title,
    subtitle: input.subtitle,
    link: ownPath(input.link, true),
  });
  if (!parsed.success) {
    const errors = fieldErrorsOf(parsed.error);
    const message = errors.image ? "Please upload an image first" : (Object.values(errors).flat()[0] ?? "");
    throw badRequest(message || "Please check the banner's fields", errors);
  }
  if (!(await uploadExists(parsed.data.image))) {
    throw badRequest("Please upload an image first", {
      image: ["This image was not uploaded to the shop: upload it again"],
    });
  }
  const { image, title, subtitle, link } = parsed.data;
  // created_at is PostgreSQL's (microseconds), not Sequelize's JavaScript Date (milliseconds): banners added
  // within one millisecond would tie, and their random ids would then decide the banner's order.
  const { sequelize } = getDb();
  return sequelize.transaction(async (transaction) => {
    const [row] = await sequelize.query<FeatureRow>(
      `INSERT INTO feature_images (image, title, subtitle, link) VALUES ($1, $2, $3, $4)
       RETURNING id, image, title, subtitle, link`,
      { bind: [image, title ?? null, subtitle ?? null, link ?? null], type: QueryTypes.SELECT, transaction },
    );
    const feature = toFeatureJson(row!);
    await recordAudit(transaction, {
      ...by,
      action: "create",
      entity: "feature",
      entityId: feature._id,
      changes: changedFields(null, feature, FEATURE_FIELDS),
    });
    return feature;
  });
}

const FEATURE_FIELDS = ["image", "title", "subtitle", "link"] as const;

export async function deleteFeature(id: string, by: AuditBy = SYSTEM_CHANGE): Promise<void> {
  if (!isUuid(id)) throw notFound(FEATURE_NOT_FOUND);
  const { sequelize } = getDb();
  const image = await sequelize.transaction(async (transaction) => {
    const [row] = await sequelize.query<FeatureRow>(
      `DELETE FROM feature_images WHERE id = $1 RETURNING id, image, title, subtitle, link`,
      { bind: [id], type: QueryTypes.SELECT, transaction },
    );
    if (!row) throw notFound(FEATURE_NOT_FOUND);
    await recordAudit(transaction, {
      ...by,
      action: "delete",
      entity: "feature",
      entityId: id,
      changes: changedFields(toFeatureJson(row), null, FEATURE_FIELDS),
    });
    return row.image;
  });
  await deleteUploadIfUnused(image);
}
