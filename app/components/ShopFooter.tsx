import { SHOP_NAME, SHOP_PAGE_LINKS, shopPageHref } from "~/lib/shared/shop-pages";
import { PlainLink } from "./PlainLink";

/** The shop's footer: its name, the three pages every shop has, and the gift cards. */
export function ShopFooter() {
  return (
    <footer className="shop-footer">
      <p className="shop-footer__name">
        © {new Date().getFullYear()} {SHOP_NAME}
      </p>
      <nav aria-label="Shop information">
        <ul className="shop-footer__links">
          {SHOP_PAGE_LINKS.map((page) => (
            <li key={page.slug}>
              <PlainLink to={shopPageHref(page)}>{page.title}</PlainLink>
            </li>
          ))}
          <li>
            <PlainLink to="/shop/gift-cards">Gift cards</PlainLink>
          </li>
        </ul>
      </nav>
    </footer>
  );
}
