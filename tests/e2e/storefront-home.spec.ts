import { DEMO_SHOPPER, expect, signInByApi, test } from "./support/fixtures";
import { cardPrices, isNoJs, productCards } from "./support/storefront";

/** Home (SPEC §2 Home, §9): the banner, the category and brand tiles, the feature products. */

test.describe("home", () => {
  test.beforeEach(async ({ page }) => {
    await signInByApi(page, DEMO_SHOPPER);
  });

  test("shows the banner, tiles that open the filtered listing, and the feature products", async ({
    page,
  }) => {
    await page.goto("/shop/home");
    const banner = page.getByTestId("banner");
    // The banner's text is HTML over the artwork, its link goes to what it advertises.
    await expect(banner.getByRole("heading", { name: "New Season Arrivals" })).toBeVisible();
    await expect(banner.getByText("Fresh styles for men, women and kids")).toBeVisible();
    await expect(banner.getByRole("link", { name: "Shop now" }).first()).toHaveAttribute(
      "href",
      "/shop/listing?category=men,women,kids",
    );
    await expect(banner.locator("img")).toHaveCount(3);

    const categories = page.getByRole("region", { name: "Shop by category" });
    await expect(categories.getByRole("link")).toHaveText([
      "Men",
      "Women",
      "Kids",
      "Accessories",
      "Footwear",
    ]);
    const brands = page.getByRole("region", { name: "Shop by Brand" });
    await expect(brands.getByRole("link")).toHaveCount(6);
    for (const brand of ["Nike", "Adidas", "Puma", "Levi's", "Zara", "H&M"]) {
      await expect(brands.getByRole("link", { name: brand, exact: true })).toBeVisible();
    }

    const featured = page.getByRole("region", { name: "Feature Products" });
    await expect(featured.locator("article.product-card")).toHaveCount(12);
    const prices = await cardPrices(page);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));

    await categories.getByRole("link", { name: "Kids" }).click();
    await expect(page).toHaveURL(/\/shop\/listing\?category=kids$/);
    await expect(page.getByTestId("product-count")).toHaveText("14 Products");

    await page.goto("/shop/home");
    await page.getByRole("region", { name: "Shop by Brand" }).getByRole("link", { name: "Levi's" }).click();
    await expect(page).toHaveURL(/\/shop\/listing\?brand=levi$/);
    await expect(productCards(page).locator(".product-card__meta span:last-child")).toHaveText(
      Array(12).fill("Levi's"),
    );
  });

  test("without JavaScript the first banner image shows and the dots link to the slides", async ({
    page,
  }) => {
    test.skip(!isNoJs(), "the plain banner is what shoppers without JavaScript get");
    await page.goto("/shop/home");
    const banner = page.getByTestId("banner");
    await expect(banner.getByRole("heading", { name: "New Season Arrivals" })).toBeInViewport();
    await expect(banner.getByRole("link", { name: "Show slide 2" })).toHaveAttribute(
      "href",
      "#banner-slide-2",
    );
    await banner.getByRole("link", { name: "Show slide 3" }).click();
    await expect(banner.getByRole("heading", { name: "The Accessories Edit" })).toBeInViewport();
    await banner.getByRole("link", { name: "Shop now" }).nth(2).click();
    await expect(page).toHaveURL(/\/shop\/listing\?category=accessories$/);
  });

  test("with JavaScript the banner rotates every 15 s, answers arrows, dots and a 50 px swipe", async ({
    page,
  }) => {
    test.skip(isNoJs(), "rotation, arrows and swipes need JavaScript");
    await page.clock.install();
    await page.goto("/shop/home");
    const banner = page.getByTestId("banner");
    await expect(banner.getByRole("button", { name: "Next slide" })).toBeVisible();
    await expect(banner).toHaveAttribute("data-active-slide", "1");

    await page.clock.fastForward(14_000);
    await expect(banner).toHaveAttribute("data-active-slide", "1");
    await page.clock.fastForward(1_100);
    await expect(banner).toHaveAttribute("data-active-slide", "2");

    await banner.getByRole("button", { name: "Next slide" }).click();
    await expect(banner).toHaveAttribute("data-active-slide", "3");
    await banner.getByRole("button", { name: "Previous slide" }).click();
    await expect(banner).toHaveAttribute("data-active-slide", "2");
    await banner.getByRole("button", { name: "Show slide 1" }).click();
    await expect(banner).toHaveAttribute("data-active-slide", "1");
    await expect(banner.getByRole("button", { name: "Show slide 1" })).toHaveAttribute(
      "aria-current",
      "true",
    );

    const swipe = (from: number, to: number) =>
      banner.locator(".banner__viewport").evaluate(
        (element, [start, end]) => {
          const touch = (x: number) =>
            new Touch({ identifier: 1, target: element, clientX: x, clientY: 100 });
          element.dispatchEvent(
            new TouchEvent("touchstart", {
              bubbles: true,
              touches: [touch(start!)],
              changedTouches: [touch(start!)],
            }),
          );
          element.dispatchEvent(
            new TouchEvent("touchend", { bubbles: true, touches: [], changedTouches: [touch(end!)] }),
          );
        },
        [from, to],
      );
    await swipe(400, 370); // 30 px: not a swipe
    await expect(banner).toHaveAttribute("data-active-slide", "1");
    await swipe(400, 320); // 80 px to the left: the next slide
    await expect(banner).toHaveAttribute("data-active-slide", "2");
    await swipe(300, 380); // to the right: back
    await expect(banner).toHaveAttribute("data-active-slide", "1");
  });
});
