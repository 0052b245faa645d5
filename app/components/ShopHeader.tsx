import { Form, useLocation } from "react-router";
import { currentMenuItemId, isCategoryItem, menuHref, SHOP_MENU } from "~/lib/shared/shop-menu";
import { CartLink } from "./CartDrawer";
import { PlainLink } from "./PlainLink";
import { storeFilters } from "~/lib/shared/stored-filters";

interface HeaderUser {
  userName: string;
}

/**
 * The menu links. Clicking one also mirrors its filter into session storage
 * (SPEC: "clears the stored filters, stores a category filter"); the link's
 * URL is what counts, with or without JavaScript.
 */
function MenuItems() {
  const location = useLocation();
  const current = currentMenuItemId(location.pathname, location.search);
  return (
    <>
      {SHOP_MENU.map((item) => (
        <PlainLink
          key={item.id}
          to={menuHref(item)}
          aria-current={current === item.id ? "page" : undefined}
          prefetch="intent"
          onClick={() => storeFilters(isCategoryItem(item) ? { category: [item.id] } : null)}
        >
          {item.label}
        </PlainLink>
      ))}
    </>
  );
}

function CartButton({ cartCount }: { cartCount: number }) {
  return (
    <CartLink className="icon-button" aria-label={`Open your cart, ${cartCount} items`}>
      <svg
        width="20"
        height="20"
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        aria-hidden="true"
      >
        <circle cx="9" cy="21" r="1" />
        <circle cx="20" cy="21" r="1" />
        <path d="M1 1h4l2.7 13.4a2 2 0 0 0 2 1.6h9.7a2 2 0 0 0 2-1.6L23 6H6" />
      </svg>
      <span className="count-badge" data-testid="cart-count">
        {cartCount}
      </span>
    </CartLink>
  );
}

/** A visitor's way in (the open storefront): the sign-in form, which comes back to this page. */
function SignInLink() {
  const { pathname, search } = useLocation();
  return (
    <PlainLink
      to={`/auth/login?${new URLSearchParams({ redirectTo: `${pathname}${search}` })}`}
      className="shop-sign-in"
    >
      Sign in
    </PlainLink>
  );
}

function HeaderActions({ user, cartCount }: { user: HeaderUser; cartCount: number }) {
  const initial = user.userName.trim().charAt(0).toUpperCase() || "U";
  return (
    <>
      <CartButton cartCount={cartCount} />
      <details className="avatar-menu">
        <summary aria-label="Open the account menu">
          <span className="avatar" aria-hidden="true">
            {initial}
          </span>
        </summary>
        <div className="avatar-menu__panel" role="menu">
          <div className="menu-label">Logged in as {user.userName}</div>
          <hr className="menu-divider" />
          <PlainLink to="/shop/account" className="menu-item" role="menuitem">
            Account
          </PlainLink>
          <hr className="menu-divider" />
          <Form method="post" action="/logout">
            <button type="submit" className="menu-item" role="menuitem">
              Logout
            </button>
          </Form>
        </div>
      </details>
    </>
  );
}

/**
 * The shop header. On small screens the menu sits in a <details> sheet, so it
 * opens without JavaScript; the cart with its count and the avatar stay in
 * the bar at every width (docs/architecture.md, rule 12: nothing a shopper needs to buy hides
 * behind a menu). A visitor without an account (the open storefront) gets a "Sign in" link in the
 * avatar's place.
 */
export function ShopHeader({ user, cartCount }: { user: HeaderUser | null; cartCount: number }) {
  // A new key per navigation closes the sheet and the avatar menu after a choice.
  const { key: navigationKey } = useLocation();
  return (
    <header className="shop-header">
      <div className="shop-header__bar">
        <details key={navigationKey} className="shop-mobile">
          <summary className="icon-button" aria-label="Open the menu">
            ☰
          </summary>
          <div className="shop-mobile__panel">
            <nav className="shop-menu" aria-label="Shop menu">
              <MenuItems />
            </nav>
          </div>
        </details>
        <PlainLink to="/shop/home" className="shop-logo">
          <svg
            width="24"
            height="24"
            viewBox="0 0 24 24"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
            aria-hidden="true"
          >
            <path d="M3 9h18l-2 12H5z" />
            <path d="M8 9a4 4 0 0 1 8 0" />
          </svg>
          <span>Ecommerce</span>
        </PlainLink>
        <nav className="shop-menu shop-bar-menu" aria-label="Main">
          <MenuItems />
        </nav>
        <div className={`shop-actions shop-bar-actions${user ? "" : " shop-bar-actions--guest"}`}>
          {user ? (
            <HeaderActions key={navigationKey} user={user} cartCount={cartCount} />
          ) : (
            <>
              <CartButton cartCount={cartCount} />
              <SignInLink />
            </>
          )}
        </div>
      </div>
    </header>
  );
}
