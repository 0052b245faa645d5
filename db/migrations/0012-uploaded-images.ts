import type { MigrationFn } from "umzug";
import type { QueryInterface } from "sequelize";

/**
 * What the image pipeline (app/services/images.server.ts) knows about each
 * processed upload, by its storage key: its size after the EXIF rotation, its
 * type and the widths stored beside it. A row means "done": the backfill skips
 * it, and `?w=` picks among its widths. width/height stay empty for a file the
 * pipeline keeps as it is and cannot measure.
 */

export const uploadedImagesUp: MigrationFn<QueryInterface> = async ({ context }) => {
  await context.sequelize.query(`
    CREATE TABLE uploaded_images (
      key varchar(80) PRIMARY KEY,
      width integer CHECK (width > 0),
      height integer CHECK (height > 0),
      content_type varchar(40) NOT NULL,
      widths integer[] NOT NULL DEFAULT '{}',
      processed_at timestamptz NOT NULL DEFAULT now()
    )
  `);
};

export const uploadedImagesDown: MigrationFn<QueryInterface> = async ({ context }) => {
  await context.sequelize.query(`DROP TABLE IF EXISTS uploaded_images`);
};
