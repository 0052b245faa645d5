import { type Page } from "@playwright/test";
import { expect, registerShopper, submitSignIn, test } from "./support/fixtures";
import { layoutShifts, piecesOf, recordLayoutShifts, serveInPieces } from "./support/arriving-page";
import { setStorefront, VARIANTS } from "./support/open-storefront";
import { productCards, seedProduct } from "./support/storefront";
import { saveShot } from "./support/shots";

/**
 * The open storefront (API.md, "Open storefront and guest checkout"), as a stranger meets it: home, the
 * listing, a product and search without an account, a cart of their own, and that cart following them into
 * their account when they sign in; with JavaScript and without, on a desktop and at 375 px.
 *
 * The store's settings are one row for the whole server, and every other spec expects `members` mode: this
 * spec runs in a project of its own ("open-storefront", playwright.config.ts) that `npm run test:e2e` runs
 * alone once every other project has finished, so nothing else runs while the storefront is open; its tests
 * run one after another and it puts `members` back at the end, failed or not.
 */

test.describe.configure({ mode: "serial" });

test.beforeAll(() => setStorefront("open"));
test.afterAll(() => setStorefront("members"));

const signInLink = (page: Page) =>
  page.getByRole("banner").getByRole("link", { name: "Sign in", exact: true });
const cartLines = (page: Page) => page.getByTestId("cart-line");

for (const { javaScriptEnabled, width, name, use } of VARIANTS) {
  test.describe(name, () => {
    test.use(use);

    test("the header a stranger sees, the cart and 'Sign in', and the listing's toolbar move nothing while the page is still arriving", async ({
      page,
      baseURL,
    }) => {
      test.skip(
        !javaScriptEnabled,
        "a script reads the layout shifts; the rule is the stylesheet's, the same without",
      );
      const pagePath = "/shop/listing?category=accessories&sortBy=title-atoz";
      const html = await (await page.request.get(pagePath)).text();
      expect(html, "the visitor's header").toContain("shop-bar-actions--guest");
      // Cut after every element of the header and the listing's toolbar, and right after each <details> tag.
      const pieces = piecesOf(html, '<div class="product-grid"');
      expect(pieces.length, "the header and the toolbar").toBeGreaterThan(20);
      const slow = await serveInPieces(pagePath, pieces, baseURL!);
      try {
        await recordLayoutShifts(page);
        await page.goto(slow.url);
        await expect(productCards(page).first()).toBeVisible();
        await expect(signInLink(page)).toBeVisible();
        expect(await layoutShifts(page)).toEqual([]);
      } finally {
        slow.close();
      }
    });

    test("a stranger browses, fills a cart, signs in and the cart follows", async ({ page }) => {
      const title = `Open Tote ${javaScriptEnabled ? "Js" : "Plain"} ${width}`;
      const productId = await seedProduct(title, 5);

      await page.goto("/");
      await expect(page).toHaveURL(/\/shop\/home$/);
      await expect(signInLink(page)).toBeVisible();
      await expect(page.getByLabel("Open the account menu")).toHaveCount(0);
      if (javaScriptEnabled) {
        await saveShot(page, `open-home-${width}.png`, { fullPage: false });
      }

      await page.goto("/shop/listing?category=accessories");
      await expect(page).toHaveURL(/\/shop\/listing/);
      await expect(productCards(page).first()).toBeVisible();

      await page.goto(`/shop/search?${new URLSearchParams({ keyword: title })}`);
      const found = productCards(page).filter({ hasText: title });
      await expect(found).toHaveCount(1);

      await page.goto(`/shop/product/${productId}`);
      await expect(page.getByRole("heading", { name: title, level: 1 })).toBeVisible();
      await expect(signInLink(page)).toBeVisible();
      await page
        .getByRole("button", { name: /^Add to cart/ })
        .first()
        .click();
      // The server's answer (its flash message), not the count shown at once: the cart's cookie comes with it.
      await expect(page.getByText("Product is added to cart").first()).toBeVisible();
      await expect(page.getByTestId("cart-count").first()).toHaveText("1");

      await page.goto("/shop/cart");
      await expect(cartLines(page)).toHaveCount(1);
      await expect(cartLines(page).first()).toContainText(title);
      await expect(signInLink(page)).toBeVisible();
      if (javaScriptEnabled) {
        await saveShot(page, `open-cart-${width}.png`);
      }

      const shopper = await registerShopper(page.request);
      await signInLink(page).click();
      await expect(page).toHaveURL(/\/auth\/login\?redirectTo=%2Fshop%2Fcart/);
      await submitSignIn(page, shopper);
      await expect(page).toHaveURL(/\/shop\/cart$/);
      await expect(cartLines(page)).toHaveCount(1);
      await expect(cartLines(page).first()).toContainText(title);
      await expect(signInLink(page)).toHaveCount(0);
      await expect(page.getByLabel("Open the account menu")).toBeVisible();
    });
  });
}
