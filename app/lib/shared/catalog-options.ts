/**
 * The catalogue's fixed vocabularies (SPEC §3): one definition for the
 * database models, the seed, the forms, the filters and the API. Safe to
 * import in the browser.
 */

export const CATEGORIES = ["men", "women", "kids", "accessories", "footwear"] as const;
export type Category = (typeof CATEGORIES)[number];

export const BRANDS = ["nike", "adidas", "puma", "levi", "zara", "h&m"] as const;
export type Brand = (typeof BRANDS)[number];

export const CATEGORY_LABELS: Record<Category, string> = {
  men: "Men",
  women: "Women",
  kids: "Kids",
  accessories: "Accessories",
  footwear: "Footwear",
};

/** Display names for brand keys (the keys are what the database stores). */
export const BRAND_LABELS: Record<Brand, string> = {
  nike: "Nike",
  adidas: "Adidas",
  puma: "Puma",
  levi: "Levi's",
  zara: "Zara",
  "h&m": "H&M",
};

export const SORT_OPTIONS = [
  { id: "price-lowtohigh", label: "Price: Low to High" },
  { id: "price-hightolow", label: "Price: High to Low" },
  { id: "title-atoz", label: "Title: A to Z" },
  { id: "title-ztoa", label: "Title: Z to A" },
] as const;
export type SortOption = (typeof SORT_OPTIONS)[number]["id"];
export const DEFAULT_SORT: SortOption = "price-lowtohigh";

export function isCategory(value: unknown): value is Category {
  return typeof value === "string" && (CATEGORIES as readonly string[]).includes(value);
}
