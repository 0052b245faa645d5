import type { ReactNode } from "react";
import {
  BRAND_LABELS,
  BRANDS,
  CATEGORIES,
  CATEGORY_LABELS,
  type Category,
} from "~/lib/shared/catalog-options";
import { listingHref } from "~/lib/shared/listing-params";
import { storeFilters } from "~/lib/shared/stored-filters";
import { PlainLink } from "./PlainLink";

const icon = (paths: ReactNode) => (
  <svg
    width="40"
    height="40"
    viewBox="0 0 24 24"
    fill="none"
    stroke="currentColor"
    strokeWidth="1.6"
    strokeLinecap="round"
    strokeLinejoin="round"
    aria-hidden="true"
  >
    {paths}
  </svg>
);

const CATEGORY_ICONS: Record<Category, ReactNode> = {
  men: icon(<path d="M8 3 4 6l2 4 2-1v12h8V9l2 1 2-4-4-3c-.5 1.5-2 2.5-4 2.5S8.5 4.5 8 3Z" />),
  women: icon(<path d="M9 3h6l-1 5 5 13H5l5-13-1-5Zm0 5h6" />),
  kids: icon(
    <>
      <circle cx="12" cy="6" r="3" />
      <path d="M6 21v-4a6 6 0 0 1 12 0v4M9 14l-3-3M15 14l3-3" />
    </>,
  ),
  accessories: icon(
    <>
      <circle cx="12" cy="12" r="5" />
      <path d="M12 10v2l1.5 1.5M9 7.5 10 3h4l1 4.5M9 16.5 10 21h4l1-4.5" />
    </>,
  ),
  footwear: icon(<path d="M3 16V8l5 1 3 4 8 1.5a2 2 0 0 1 2 2V18H3v-2Zm0 0h18" />),
};

/** "Shop by category": each tile opens the listing filtered by it. */
export function CategoryTiles() {
  return (
    <ul className="tile-grid tile-grid--categories">
      {CATEGORIES.map((category) => (
        <li key={category}>
          <PlainLink
            to={listingHref({ category: [category] })}
            className="tile"
            onClick={() => storeFilters({ category: [category] })}
          >
            {CATEGORY_ICONS[category]}
            <span className="tile__label">{CATEGORY_LABELS[category]}</span>
          </PlainLink>
        </li>
      ))}
    </ul>
  );
}

/** "Shop by Brand": each tile opens the listing filtered by it. */
export function BrandTiles() {
  return (
    <ul className="tile-grid tile-grid--brands">
      {BRANDS.map((brand) => (
        <li key={brand}>
          <PlainLink
            to={listingHref({ brand: [brand] })}
            className="tile"
            onClick={() => storeFilters({ brand: [brand] })}
          >
            <span className="tile__monogram" aria-hidden="true">
              {BRAND_LABELS[brand].charAt(0)}
            </span>
            <span className="tile__label">{BRAND_LABELS[brand]}</span>
          </PlainLink>
        </li>
      ))}
    </ul>
  );
}
