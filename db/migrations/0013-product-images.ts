import { readFile } from "node:fs/promises";
import path from "node:path";
import type { MigrationFn } from "umzug";
import { QueryTypes, type QueryInterface } from "sequelize";

/**
 * Several pictures per product (docs/decisions/0018-product-gallery.md): up to
 * eight, ordered, each with its alt text and optionally the colour it shows.
 *
 * `products.image` stays: the spec's clients read it, and it is always the
 * first picture's URL. A trigger keeps it so in the transaction that changes
 * the gallery, whoever writes it. A product with no rows here (one written by
 * an older path) shows its `image` as a one-picture gallery.
 *
 * A picture's size is the upload's (`uploaded_images`, joined by the key in
 * its URL, so a picture the backfill measures later has its size at once) or,
 * for a picture that is not an upload (the demo's drawings, another site's
 * URL), the size written with it when known.
 */

const UPLOAD_KEY_SQL = `substring(url from '([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\\.[a-z0-9]{2,5})$')`;

const up = `
CREATE TABLE product_images (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  product_id uuid NOT NULL REFERENCES products (id) ON DELETE CASCADE,
  position smallint NOT NULL CHECK (position >= 0 AND position < 8),
  url text NOT NULL,
  alt varchar(200) NOT NULL DEFAULT '',
  colour varchar(20),
  width integer CHECK (width > 0),
  height integer CHECK (height > 0),
  upload_key varchar(80) GENERATED ALWAYS AS (${UPLOAD_KEY_SQL}) STORED,
  CONSTRAINT product_images_position_key UNIQUE (product_id, position) DEFERRABLE INITIALLY DEFERRED
);
CREATE INDEX product_images_upload_key_idx ON product_images (upload_key) WHERE upload_key IS NOT NULL;

CREATE FUNCTION product_images_first_to_product() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed uuid;
  first_url text;
BEGIN
  IF TG_OP = 'DELETE' THEN changed := OLD.product_id; ELSE changed := NEW.product_id; END IF;
  SELECT url INTO first_url FROM product_images WHERE product_id = changed ORDER BY position LIMIT 1;
  IF first_url IS NOT NULL THEN
    UPDATE products SET image = first_url WHERE id = changed AND image IS DISTINCT FROM first_url;
  END IF;
  IF TG_OP = 'UPDATE' AND OLD.product_id <> NEW.product_id THEN
    SELECT url INTO first_url FROM product_images WHERE product_id = OLD.product_id ORDER BY position LIMIT 1;
    IF first_url IS NOT NULL THEN
      UPDATE products SET image = first_url WHERE id = OLD.product_id AND image IS DISTINCT FROM first_url;
    END IF;
  END IF;
  RETURN NULL;
END $$;

-- Deferred: a reorder moves several rows, and only the end state names the first picture.
CREATE CONSTRAINT TRIGGER product_images_first
  AFTER INSERT OR UPDATE OR DELETE ON product_images
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION product_images_first_to_product();

INSERT INTO product_images (product_id, position, url, alt)
  SELECT id, 0, image, '' FROM products;
`;

const down = `
DROP TABLE IF EXISTS product_images;
DROP FUNCTION IF EXISTS product_images_first_to_product();
`;

/** The width and height an SVG declares in pixels, or null. */
function declaredSvgSize(text: string): { width: number; height: number } | null {
  const tag = /<svg\b[^>]*>/i.exec(text)?.[0];
  const width = tag && /\swidth="(\d+)(?:px)?"/.exec(tag)?.[1];
  const height = tag && /\sheight="(\d+)(?:px)?"/.exec(tag)?.[1];
  return width && height ? { width: Number(width), height: Number(height) } : null;
}

export const productImagesUp: MigrationFn<QueryInterface> = async ({ context }) => {
  await context.sequelize.query(up);
  // The demo's drawings are files of the shop (public/images): their declared size is their size.
  const pictures = await context.sequelize.query<{ url: string }>(
    `SELECT DISTINCT url FROM product_images WHERE url ~ '^/images/[A-Za-z0-9_/-]+\\.svg$'`,
    { type: QueryTypes.SELECT },
  );
  for (const { url } of pictures) {
    const size = await readFile(path.join(process.cwd(), "public", url), "utf8").then(
      declaredSvgSize,
      () => null,
    );
    if (size)
      await context.sequelize.query(
        `UPDATE product_images SET width = :width, height = :height WHERE url = :url`,
        {
          replacements: { ...size, url },
        },
      );
  }
};

export const productImagesDown: MigrationFn<QueryInterface> = async ({ context }) => {
  await context.sequelize.query(down);
};
