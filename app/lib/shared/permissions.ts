/**
 * The back office's permissions: one per area, defined here once. The guards
 * (app/web/auth.server.ts), the admin menu, the staff page's checkboxes, the
 * API key form, the OpenAPI document and the permission-matrix tests all take
 * them from this list (docs/decisions/0033-staff-permissions-and-api-keys.md).
 * Safe in the browser.
 */

export const PERMISSIONS = [
  "products",
  "orders",
  "returns",
  "discounts",
  "shipping",
  "taxes",
  "banners",
  "reports",
  "audit",
  "webhooks",
  "staff",
  "settings",
  "giftCards",
  "customers",
] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** What each permission opens, as the staff page and the API key form describe it. */
export const PERMISSION_LABELS: Record<Permission, { label: string; description: string }> = {
  products: { label: "Products", description: "Catalogue, stock, pictures, CSV import and export" },
  orders: { label: "Orders", description: "Orders, their status, tracking and refunds of payments" },
  returns: { label: "Returns", description: "Return requests and their refunds" },
  discounts: { label: "Discounts", description: "Discount codes" },
  shipping: { label: "Delivery", description: "Shipping methods and their prices" },
  taxes: { label: "Taxes", description: "Sales tax and VAT rates" },
  banners: { label: "Banners", description: "The home page's feature banners" },
  reports: { label: "Reports", description: "Sales figures on the dashboard and the sales report" },
  audit: { label: "Audit log", description: "Who changed what, and when" },
  webhooks: { label: "Webhooks", description: "Endpoints that hear about the shop's events" },
  staff: { label: "Staff and API keys", description: "Invite and manage staff, make and revoke API keys" },
  settings: { label: "Settings", description: "Who may browse the shop and whether guests may buy" },
  giftCards: {
    label: "Gift cards",
    description: "Find, issue, adjust, disable and date gift cards; their ledgers",
  },
  customers: {
    label: "Customers",
    description: "Find shoppers, download or erase their data on their request",
  },
};

/** The permissions an API key may carry: every one but `staff` (a program never manages people or keys). */
export const API_KEY_PERMISSIONS = PERMISSIONS.filter(
  (permission): permission is Exclude<Permission, "staff"> => permission !== "staff",
);

/** The roles of the back office: an admin holds every permission, a staff member the ones given. */
export const BACK_OFFICE_ROLES = ["admin", "staff"] as const;
export type BackOfficeRole = (typeof BACK_OFFICE_ROLES)[number];

export function isPermission(value: unknown): value is Permission {
  return typeof value === "string" && (PERMISSIONS as readonly string[]).includes(value);
}

export function isBackOffice(user: { role: string } | null | undefined): boolean {
  return !!user && (BACK_OFFICE_ROLES as readonly string[]).includes(user.role);
}

/**
 * What a person may open: an admin everything, a staff member their list
 * (in the list's order, unknown names dropped), a shopper nothing.
 */
export function permissionsOf(user: { role: string; permissions?: readonly string[] | null }): Permission[] {
  if (user.role === "admin") return [...PERMISSIONS];
  if (user.role !== "staff") return [];
  const held = new Set(user.permissions ?? []);
  return PERMISSIONS.filter((permission) => held.has(permission));
}

export function holds(user: { role: string; permissions?: readonly string[] | null }, area: Permission) {
  return permissionsOf(user).includes(area);
}

/**
 * The permissions of `permissions` that `user` does not hold. Granting, enabling a person and revoking
 * a key all need the actor to hold every permission at stake (API.md "Staff, two-factor sign-in, API keys").
 */
export function unheldBy(
  user: { role: string; permissions?: readonly string[] | null },
  permissions: readonly string[],
): string[] {
  const held: readonly string[] = permissionsOf(user);
  return permissions.filter((permission) => !held.includes(permission));
}

/** The refusal of a person or key without the area's permission (403). */
export function missingPermissionMessage(area: Permission): string {
  return `You do not have the ${PERMISSION_LABELS[area].label} permission (${area})`;
}

/** The back office's menu: each entry opens one area (`null`: every back-office person). */
export const ADMIN_MENU: readonly { id: string; label: string; path: string; area: Permission | null }[] = [
  { id: "dashboard", label: "Dashboard", path: "/admin/dashboard", area: null },
  { id: "products", label: "Products", path: "/admin/products", area: "products" },
  { id: "orders", label: "Orders", path: "/admin/orders", area: "orders" },
  { id: "abandonedCarts", label: "Abandoned carts", path: "/admin/abandoned-carts", area: "orders" },
  { id: "returns", label: "Returns", path: "/admin/returns", area: "returns" },
  { id: "shipping", label: "Delivery", path: "/admin/shipping", area: "shipping" },
  { id: "discounts", label: "Discounts", path: "/admin/discounts", area: "discounts" },
  { id: "giftCards", label: "Gift cards", path: "/admin/gift-cards", area: "giftCards" },
  { id: "customers", label: "Customers", path: "/admin/customers", area: "customers" },
  { id: "taxes", label: "Taxes", path: "/admin/taxes", area: "taxes" },
  { id: "webhooks", label: "Webhooks", path: "/admin/webhooks", area: "webhooks" },
  { id: "audit", label: "Audit log", path: "/admin/audit", area: "audit" },
  { id: "staff", label: "Staff", path: "/admin/staff", area: "staff" },
  { id: "settings", label: "Settings", path: "/admin/settings", area: "settings" },
  { id: "account", label: "Account", path: "/admin/account", area: null },
];

export type AdminMenuEntry = Pick<(typeof ADMIN_MENU)[number], "id" | "label" | "path">;

/** The menu entries `permissions` open, in the menu's order. */
export function adminMenuFor(permissions: readonly Permission[]): AdminMenuEntry[] {
  return ADMIN_MENU.filter((entry) => entry.area === null || permissions.includes(entry.area)).map(
    ({ id, label, path }) => ({ id, label, path }),
  );
}
