/** The shop header's menu (SPEC §2): home, the listing and its categories, search. */
interface ShopMenuItem {
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

/** Home, products and search are not filters; the other items filter the listing by their category. */
export function isCategoryItem(item: ShopMenuItem): boolean {
  return item.id !== "home" && item.id !== "products" && item.id !== "search";
}

/**
 * Home, products and search clear the filters; a category item filters by
 * itself alone. On the listing page the link only changes the query, so the
 * page stays and only its products change.
 */
export function menuHref(item: ShopMenuItem): string {
  return isCategoryItem(item) ? `${item.path}?category=${item.id}` : item.path;
}

/** The item that describes the current location, if one does exactly. */
export function currentMenuItemId(pathname: string, search: string): ShopMenuItem["id"] | null {
  if (pathname === "/shop/home") return "home";
  if (pathname === "/shop/search") return "search";
  if (pathname !== "/shop/listing") return null;
  const params = new URLSearchParams(search);
  const category = params.get("category") ?? "";
  if (params.get("brand")) return null;
  if (!category) return "products";
  const item = SHOP_MENU.find((entry) => entry.id === category.toLowerCase() && isCategoryItem(entry));
  return item ? item.id : null;
}
