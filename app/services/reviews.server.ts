import { QueryTypes } from "sequelize";
import { getDb } from "~/models/db.server";
import { badRequest, conflict, forbidden, isUniqueViolation, notFound } from "~/lib/server/errors.server";
import { REVIEW_TEXT, reviewSchema } from "~/lib/shared/review-schema";
import { fieldErrorsOf } from "~/lib/shared/schemas";
import type { Paging } from "~/lib/shared/paging";
import { isUuid } from "~/lib/shared/uuid";

/**
 * Star reviews (SPEC §5, API.md Reviews): only a shopper with a paid order
 * containing the product may review it, once; the product's averageReview is
 * recomputed in the same transaction.
 */

export interface ReviewJson {
  _id: string;
  productId: string;
  userId: string;
  userName: string;
  reviewMessage: string;
  reviewValue: number;
  createdAt: string;
}

interface ReviewRow {
  id: string;
  productId: string;
  userId: string;
  userName: string;
  reviewMessage: string;
  reviewValue: number;
  createdAt: Date | string;
}

function toReviewJson(row: ReviewRow): ReviewJson {
  return {
    _id: row.id,
    productId: row.productId,
    userId: row.userId,
    userName: row.userName,
    reviewMessage: row.reviewMessage,
    reviewValue: Number(row.reviewValue),
    createdAt: new Date(row.createdAt).toISOString(),
  };
}

const REVIEW_COLUMNS = `r.id, r.product_id AS "productId", r.user_id AS "userId", r.user_name AS "userName",
  r.review_message AS "reviewMessage", r.review_value AS "reviewValue", r.created_at AS "createdAt"`;

interface Reviewer {
  id: string;
  userName: string;
}

/**
 * Adds `reviewer`'s review. Throws AppError: 400 invalid input (the first
 * problem as the message, every problem in `fieldErrors`), 404 unknown
 * product, 403 no paid purchase of it, 409 already reviewed.
 */
export async function addReview(reviewer: Reviewer, input: unknown): Promise<ReviewJson> {
  const parsed = reviewSchema.safeParse(input);
  if (!parsed.success) {
    throw badRequest(parsed.error.issues[0]?.message ?? "Invalid review", fieldErrorsOf(parsed.error));
  }
  const { productId, reviewValue, reviewMessage } = parsed.data;
  if (!isUuid(productId)) throw notFound(REVIEW_TEXT.productNotFound);

  const { sequelize } = getDb();
  try {
    return await sequelize.transaction(async (transaction) => {
      // The product row lock makes reviews of one product take turns, so the
      // checks below and the recomputed average see every earlier review.
      const [state] = await sequelize.query<{ purchased: boolean; reviewed: boolean }>(
        `SELECT EXISTS (
                  SELECT 1 FROM orders o JOIN order_items i ON i.order_id = o.id
                   WHERE o.user_id = $2 AND i.product_id = p.id AND o.payment_status IN ('paid', 'partially_refunded')
                ) AS purchased,
                EXISTS (SELECT 1 FROM reviews r WHERE r.product_id = p.id AND r.user_id = $2) AS reviewed
           FROM products p WHERE p.id = $1
            FOR UPDATE OF p`,
        { bind: [productId, reviewer.id], type: QueryTypes.SELECT, transaction },
      );
      if (!state) throw notFound(REVIEW_TEXT.productNotFound);
      if (!state.purchased) throw forbidden(REVIEW_TEXT.purchaseRequired);
      if (state.reviewed) throw conflict(REVIEW_TEXT.alreadyReviewed);

      const [row] = await sequelize.query<ReviewRow>(
        `INSERT INTO reviews AS r (product_id, user_id, user_name, review_message, review_value)
         VALUES ($1, $2, $3, $4, $5)
         RETURNING ${REVIEW_COLUMNS}`,
        {
          bind: [productId, reviewer.id, reviewer.userName, reviewMessage, reviewValue],
          type: QueryTypes.SELECT,
          transaction,
        },
      );
      await sequelize.query(
        `UPDATE products
            SET average_review = (SELECT round(avg(review_value), 2) FROM reviews WHERE product_id = $1),
                updated_at = now()
          WHERE id = $1`,
        { bind: [productId], transaction },
      );
      return toReviewJson(row!);
    });
  } catch (error) {
    // Belt and braces: the unique index (product, user) has the last word.
    if (isUniqueViolation(error)) throw conflict(REVIEW_TEXT.alreadyReviewed);
    throw error;
  }
}

/** A product's reviews, newest first, one page at a time; null when the product does not exist. */
export async function listReviews(
  productId: string,
  paging: Paging,
): Promise<{ reviews: ReviewJson[]; total: number } | null> {
  if (!isUuid(productId)) return null;
  const rows = await getDb().sequelize.query<ReviewRow & { total: number | null }>(
    `SELECT ${REVIEW_COLUMNS}, count(r.id) OVER ()::int AS total
       FROM products p
       LEFT JOIN reviews r ON r.product_id = p.id
      WHERE p.id = $1
      ORDER BY r.created_at DESC, r.id ASC
      LIMIT $2 OFFSET $3`,
    { bind: [productId, paging.limit, (paging.page - 1) * paging.limit], type: QueryTypes.SELECT },
  );
  if (!rows.length) {
    if (paging.page === 1) return null;
    // Past the last page: the product may still exist.
    const [exists] = await getDb().sequelize.query<{ total: number }>(
      `SELECT count(r.id)::int AS total FROM products p LEFT JOIN reviews r ON r.product_id = p.id
        WHERE p.id = $1 GROUP BY p.id`,
      { bind: [productId], type: QueryTypes.SELECT },
    );
    return exists ? { reviews: [], total: exists.total } : null;
  }
  return {
    reviews: rows.filter((row) => row.id !== null).map(toReviewJson),
    total: rows[0]?.total ?? 0,
  };
}
