import type { MigrationFn } from "umzug";
import type { QueryInterface } from "sequelize";

/**
 * Banners as real content: a feature image can carry an optional
 * title, subtitle and link, shown as HTML over the artwork (the home page
 * falls back to defaults when they are empty). The link is a path on the shop.
 */

const up = `
ALTER TABLE feature_images ADD COLUMN title varchar(80);
ALTER TABLE feature_images ADD COLUMN subtitle varchar(160);
ALTER TABLE feature_images ADD COLUMN link varchar(300);
`;

const down = `
ALTER TABLE feature_images DROP COLUMN IF EXISTS link;
ALTER TABLE feature_images DROP COLUMN IF EXISTS subtitle;
ALTER TABLE feature_images DROP COLUMN IF EXISTS title;
`;

export const featureBannerTextUp: MigrationFn<QueryInterface> = async ({ context }) => {
  await context.sequelize.query(up);
};

export const featureBannerTextDown: MigrationFn<QueryInterface> = async ({ context }) => {
  await context.sequelize.query(down);
};
