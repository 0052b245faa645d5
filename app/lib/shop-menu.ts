/** The shop header's menu (SPEC §2): home, the listing and its categories, search. */
export interface ShopMenuItem {
  id: "home" | "products" | "men" | "women" | "kids" | "footwear" | "accessories" | "search";
  label: string;
  path: "/shop/home" | "/shop/listing" | "/shop/search";
}

export const SHOP_MENU: ShopMenuItem[] = [
  { id: "home", label: "Home", path: "/shop/home" },
  { id: "products", label: "Products", path: "/shop/listing" },
  { id: "men", label: "Men", path: "/shop/listing" },
  { id: "women", label: "Women", path: "/shop/listing" },
  { id: "kids", label: "Kids", path: "/shop/listing" },
  { id: "footwear", label: "Footwear", path: "/shop/listing" },
  { id: "accessories", label: "Accessories", path: "/shop/listing" },
  { id: "search", label: "Search", path: "/shop/search" },
];

/** Home, products and search clear the filters; a category item filters by itself. */
export function menuHref(item: ShopMenuItem): string {
  const isCategory = item.id !== "home" && item.id !== "products" && item.id !== "search";
  return isCategory ? `${item.path}?category=${item.id}` : item.path;
}
