import { Link } from "react-router";
import { ACCOUNT_ALERTS_PATH, ACCOUNT_WISHLIST_PATH } from "~/lib/shared/stock-alerts";

/** The account's sections: tabs of /shop/account and the pages beside it (links: they work without JavaScript). */
const SECTIONS = [
  { key: "orders", label: "Orders", href: "/shop/account" },
  { key: "address", label: "Address", href: "/shop/account?tab=address" },
  { key: "settings", label: "Settings", href: "/shop/account?tab=settings" },
  { key: "wishlist", label: "Wishlist", href: ACCOUNT_WISHLIST_PATH },
  { key: "alerts", label: "Alerts", href: ACCOUNT_ALERTS_PATH },
  { key: "storeCredit", label: "Store credit", href: "/shop/account/store-credit" },
] as const;

export type AccountSection = (typeof SECTIONS)[number]["key"];

export function AccountTabs({ current }: { current: AccountSection }) {
  return (
    <nav className="account-tabs" aria-label="Account sections">
      {SECTIONS.map((section) => (
        <Link
          key={section.key}
          to={section.href}
          aria-current={section.key === current ? "page" : undefined}
          preventScrollReset
        >
          {section.label}
        </Link>
      ))}
    </nav>
  );
}
