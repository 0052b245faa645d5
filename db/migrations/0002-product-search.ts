import type { MigrationFn } from "umzug";
import type { QueryInterface } from "sequelize";

/**
 * Product search (SPEC §2 Search, API.md search/{keyword}):
 * - a generated tsvector over title (weight A), category and brand (B) and
 *   description (C), with a GIN index: full-text search with prefixes and ranking;
 * - pg_trgm with a trigram GIN index on title, category and brand: the fallback
 *   that still finds "hodie" when nobody spelled it right. The search service
 *   uses exactly the indexed expression.
 *
 * CREATE EXTENSION needs a role that may create it (a superuser, or on
 * PostgreSQL 13+ the database owner, since pg_trgm is a trusted extension).
 * The embedded database runs as a superuser; on a managed server, create it
 * once as an administrator if this migration is refused.
 *
 * The brand keys "h&m" and "levi" are written out as people type them
 * ("hm", "levis") so that both spellings match.
 */

const up = `
CREATE EXTENSION IF NOT EXISTS pg_trgm;

ALTER TABLE products ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (
  setweight(to_tsvector('english'::regconfig, title), 'A') ||
  setweight(to_tsvector('english'::regconfig,
    category || ' ' || brand || ' ' || replace(brand, '&', '') ||
    CASE WHEN brand = 'levi' THEN ' levis' ELSE '' END), 'B') ||
  setweight(to_tsvector('english'::regconfig, description), 'C')
) STORED;

CREATE INDEX products_search_vector_idx ON products USING gin (search_vector);
-- The listing's count with both filters set answers from this index alone.
CREATE INDEX products_category_brand_idx ON products (category, brand);
CREATE INDEX products_search_text_trgm_idx ON products
  USING gin ((title || ' ' || category || ' ' || brand) gin_trgm_ops);
`;

const down = `
DROP INDEX IF EXISTS products_search_text_trgm_idx;
DROP INDEX IF EXISTS products_category_brand_idx;
DROP INDEX IF EXISTS products_search_vector_idx;
ALTER TABLE products DROP COLUMN IF EXISTS search_vector;
`;

export const productSearchUp: MigrationFn<QueryInterface> = async ({ context }) => {
  await context.sequelize.query(up);
};

export const productSearchDown: MigrationFn<QueryInterface> = async ({ context }) => {
  await context.sequelize.query(down);
};
