import { type Page } from "@playwright/test";
import { DEMO_ADMIN, DEMO_SHOPPER, expect, registerShopper, signInByApi, test } from "./support/fixtures";
import { SCRIPTS_STARTED_PER_TASK } from "../../app/lib/server/page-scripts.server";
import { productIdByTitle } from "./support/storefront";

/** The shop header and the admin panel's drawer (SPEC §2 shop header and admin layout). */

const SHOP_MENU = [
  { label: "Home", href: "/shop/home" },
  { label: "Products", href: "/shop/listing" },
  { label: "Men", href: "/shop/listing?category=men" },
  { label: "Women", href: "/shop/listing?category=women" },
  { label: "Kids", href: "/shop/listing?category=kids" },
  { label: "Footwear", href: "/shop/listing?category=footwear" },
  { label: "Accessories", href: "/shop/listing?category=accessories" },
  { label: "Search", href: "/shop/search" },
];

/**
 * The header renders the avatar menu twice (the bar and the phone sheet, one
 * of them hidden by CSS): these find the one on screen.
 */
function accountMenuToggle(page: Page) {
  return page.getByLabel("Open the account menu").filter({ visible: true });
}

function visibleText(page: Page, text: string) {
  return page.getByText(text, { exact: true }).filter({ visible: true });
}

test.describe("the shop header for a signed-in shopper", () => {
  test("has the logo link 'Ecommerce' to /shop/home", async ({ page }) => {
    await signInByApi(page, DEMO_SHOPPER);
    await page.goto("/shop/listing?category=men");
    const logo = page.getByRole("link", { name: "Ecommerce" });
    await expect(logo).toHaveAttribute("href", "/shop/home");
    await logo.click();
    await expect(page).toHaveURL(/\/shop\/home$/);
  });

  test("lists Home, Products, Men, Women, Kids, Footwear, Accessories and Search with their paths", async ({
    page,
  }) => {
    await signInByApi(page, DEMO_SHOPPER);
    await page.goto("/shop/home");
    const menu = page.getByRole("navigation", { name: "Main" });
    await expect(menu.getByRole("link")).toHaveText(SHOP_MENU.map((item) => item.label));
    for (const item of SHOP_MENU) {
      await expect(menu.getByRole("link", { name: item.label, exact: true })).toHaveAttribute(
        "href",
        item.href,
      );
    }
    await expect(menu.getByRole("link", { name: "Home" })).toHaveAttribute("aria-current", "page");
  });

  test("a category item opens the listing filtered by that category and marks itself current", async ({
    page,
  }) => {
    await signInByApi(page, DEMO_SHOPPER);
    await page.goto("/shop/home");
    const menu = page.getByRole("navigation", { name: "Main" });
    await menu.getByRole("link", { name: "Women" }).click();
    await expect(page).toHaveURL(/\/shop\/listing\?category=women$/);
    await expect(menu.getByRole("link", { name: "Women" })).toHaveAttribute("aria-current", "page");
    await menu.getByRole("link", { name: "Footwear" }).click();
    await expect(page).toHaveURL(/\/shop\/listing\?category=footwear$/);
    await menu.getByRole("link", { name: "Search" }).click();
    await expect(page).toHaveURL(/\/shop\/search$/);
  });

  test("with JavaScript its links load the next page within this one, fetch it ahead on hover and leave a Ctrl-click to the browser", async ({
    page,
    context,
  }) => {
    test.skip(!test.info().project.use.javaScriptEnabled, "without JavaScript every link loads a whole page");
    await signInByApi(page, DEMO_SHOPPER);
    await page.goto("/shop/home");
    // Gone if the document is replaced by a full page load.
    await page.evaluate(() => Object.assign(window, { __samePage: true }));
    const menu = page.getByRole("navigation", { name: "Main" });
    const kids = menu.getByRole("link", { name: "Kids" });

    await kids.hover();
    // The page's data, asked for ahead of the click (as React Router's <Link prefetch="intent">).
    await expect(page.locator('link[rel="prefetch"][href*=".data"][href*="category=kids"]')).not.toHaveCount(
      0,
    );
    await kids.click();
    await expect(page).toHaveURL(/\/shop\/listing\?category=kids$/);
    await expect(kids).toHaveAttribute("aria-current", "page");
    expect(await page.evaluate(() => "__samePage" in window)).toBe(true);

    const [tab] = await Promise.all([
      context.waitForEvent("page"),
      menu.getByRole("link", { name: "Footwear" }).click({ modifiers: ["ControlOrMeta"] }),
    ]);
    await expect(tab).toHaveURL(/\/shop\/listing\?category=footwear$/);
    await expect(page).toHaveURL(/\/shop\/listing\?category=kids$/);
    await tab.close();
  });

  test("shows a cart button with the count 0 for a new shopper and the initial of the user name", async ({
    page,
  }) => {
    const shopper = await registerShopper(page.request, { userName: "zoe Carter" });
    await signInByApi(page, shopper);
    await page.goto("/shop/home");
    const cart = page.getByRole("link", { name: /^Open your cart/ });
    await expect(cart).toHaveAccessibleName("Open your cart, 0 items");
    await expect(cart).toHaveText("0");
    await expect(cart).toHaveAttribute("href", "/shop/cart");
    await expect(accountMenuToggle(page)).toHaveText("Z");
  });

  test("the avatar shows 'D' and its menu shows 'Logged in as Demo Shopper' and Account linking to /shop/account", async ({
    page,
  }) => {
    await signInByApi(page, DEMO_SHOPPER);
    await page.goto("/shop/home");
    await expect(accountMenuToggle(page)).toHaveText("D");
    await expect(visibleText(page, "Logged in as Demo Shopper")).toHaveCount(0);

    await accountMenuToggle(page).click();
    await expect(visibleText(page, "Logged in as Demo Shopper")).toBeVisible();
    const account = page.getByRole("menuitem", { name: "Account" });
    await expect(account).toHaveAttribute("href", "/shop/account");
    await expect(page.getByRole("menuitem", { name: "Logout" })).toBeVisible();

    await account.click();
    await expect(page).toHaveURL(/\/shop\/account$/);
    // The menu does not stay open over the page it led to.
    await expect(visibleText(page, "Logged in as Demo Shopper")).toHaveCount(0);
  });

  test.describe("on a 390px wide screen", () => {
    test.use({ viewport: { width: 390, height: 844 } });

    test("the menu opens from the 'Open the menu' disclosure, without JavaScript too, and its items work", async ({
      page,
    }) => {
      await signInByApi(page, DEMO_SHOPPER);
      await page.goto("/shop/home");
      const sheet = page.getByRole("navigation", { name: "Shop menu" });
      await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();
      await expect(sheet).toBeHidden();

      await page.getByLabel("Open the menu", { exact: true }).click();
      await expect(sheet).toBeVisible();
      await expect(sheet.getByRole("link")).toHaveText(SHOP_MENU.map((item) => item.label));
      // Other specs may have filled the demo shopper's cart: only the button matters here.
      await expect(page.getByRole("link", { name: /^Open your cart, \d+ items$/ })).toBeVisible();

      await sheet.getByRole("link", { name: "Kids" }).click();
      await expect(page).toHaveURL(/\/shop\/listing\?category=kids$/);
      // The sheet closes once it has taken the shopper somewhere.
      await expect(sheet).toBeHidden();

      // The avatar stays in the bar on a phone: no need to open the menu first.
      await accountMenuToggle(page).click();
      await expect(visibleText(page, "Logged in as Demo Shopper")).toBeVisible();
      await expect(page.getByRole("menuitem", { name: "Account" })).toHaveAttribute("href", "/shop/account");
    });
  });
});

test.describe("the admin panel on a 390px wide screen", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the drawer opens from 'Open the admin menu' and its links lead to every admin page", async ({
    page,
  }) => {
    await signInByApi(page, DEMO_ADMIN);
    await page.goto("/admin/dashboard");
    await expect(page.getByRole("complementary", { name: "Admin Panel" })).toBeHidden();
    const drawerMenu = page.getByRole("navigation", { name: "Admin" }).filter({ visible: true });
    await expect(drawerMenu).toHaveCount(0);

    const destinations = [
      { label: "Products", path: /\/admin\/products$/ },
      { label: "Orders", path: /\/admin\/orders$/ },
      { label: "Account", path: /\/admin\/account$/ },
      { label: "Dashboard", path: /\/admin\/dashboard$/ },
    ];
    let current = "Dashboard";
    for (const destination of destinations) {
      await page.getByLabel("Open the admin menu").click();
      await expect(page.getByRole("link", { name: "Admin Panel" })).toBeVisible();
      await expect(drawerMenu.getByRole("link")).toHaveText([
        "Dashboard",
        "Products",
        "Orders",
        "Abandoned carts",
        "Returns",
        "Delivery",
        "Discounts",
        "Gift cards",
        "Customers",
        "Taxes",
        "Webhooks",
        "Audit log",
        "Staff",
        "Settings",
        "Account",
      ]);
      await expect(drawerMenu.getByRole("link", { name: current })).toHaveAttribute("aria-current", "page");
      // The drawer's own Logout, beside the one in the header.
      await expect(page.getByRole("button", { name: "Logout" })).toHaveCount(2);

      await drawerMenu.getByRole("link", { name: destination.label }).click();
      await expect(page).toHaveURL(destination.path);
      // Like the original's sheet, the drawer closes after a choice.
      await expect(drawerMenu).toHaveCount(0);
      current = destination.label;
    }
  });
});

test.describe("the page's scripts", () => {
  test.skip(({ javaScriptEnabled }) => javaScriptEnabled === false, "about the page's scripts");

  test("wait in an inert template on the four first pages: the document fetches no script of itself, and its main picture comes first", async ({
    page,
  }) => {
    await signInByApi(page, DEMO_SHOPPER);
    const id = await productIdByTitle(page.request, "Tech Fleece Hoodie");
    for (const path of ["/shop/home", "/shop/listing", `/shop/product/${id}`, "/shop/search?keyword=shirt"]) {
      const html = await (await page.request.get(path)).text();
      // The document as the browser parses it: what a <template> holds is inert (neither fetched nor run).
      const document = await page.evaluate((markup) => {
        const parsed = new DOMParser().parseFromString(markup, "text/html");
        const live = (selector: string) => parsed.querySelectorAll(selector).length;
        const template = parsed.querySelector<HTMLTemplateElement>("template[data-page-scripts]");
        const picture = parsed.querySelector('img[fetchpriority="high"]');
        const held = template?.content;
        return {
          liveModulePreloads: live('link[rel="modulepreload"]'),
          liveModuleScripts: live('script[type="module"]'),
          liveScriptsWithSrc: live("script[src]"),
          livePreloadsOtherThanPictures: live('link[rel="preload"]:not([as="image"])'),
          heldModulePreloads: held?.querySelectorAll('link[rel="modulepreload"]').length ?? 0,
          heldModuleScripts: held?.querySelectorAll('script[type="module"]').length ?? 0,
          hasMainPicture: picture !== null,
          pictureBeforeTemplate:
            picture !== null &&
            template !== null &&
            (picture.compareDocumentPosition(template) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0,
        };
      }, html);
      expect(document, path).toEqual({
        liveModulePreloads: 0,
        liveModuleScripts: 0,
        liveScriptsWithSrc: 0,
        livePreloadsOtherThanPictures: 0,
        heldModulePreloads: expect.any(Number),
        heldModuleScripts: 1,
        hasMainPicture: true,
        pictureBeforeTemplate: true,
      });
      expect(document.heldModulePreloads, path).toBeGreaterThan(0);
    }
  });

  test("are fetched only once the main picture has loaded, and then hydrate the page", async ({ page }) => {
    await signInByApi(page, DEMO_SHOPPER);
    const order: string[] = [];
    page.on("request", (request) => {
      if (request.resourceType() === "script") order.push("script requested");
    });
    page.on("requestfinished", (request) => {
      if (request.resourceType() === "image") order.push(`image loaded ${new URL(request.url()).pathname}`);
    });
    await page.goto("/shop/listing");
    await expect(page.locator("html")).toHaveAttribute("data-hydrated", "");
    const main = await page
      .locator('img[fetchpriority="high"]')
      .first()
      .evaluate((img) => {
        return new URL((img as HTMLImageElement).currentSrc).pathname;
      });
    const firstScript = order.indexOf("script requested");
    expect(firstScript).toBeGreaterThan(0);
    expect(order.slice(0, firstScript)).toContain(`image loaded ${main}`);
  });

  test("start their requests a few at a time, the module script last", async ({ page }) => {
    await signInByApi(page, DEMO_SHOPPER);
    // Each insertion into the body, in the order made: the scripts' requests it starts.
    await page.addInitScript(() => {
      const inserted: string[][] = [];
      (window as unknown as { inserted: string[][] }).inserted = inserted;
      new MutationObserver((records) => {
        for (const record of records) {
          if (record.target !== document.body) continue;
          const kinds = [...record.addedNodes].flatMap((node) => {
            if (node instanceof HTMLLinkElement && node.rel === "modulepreload") return ["preload"];
            if (node instanceof HTMLScriptElement && node.type === "module") return ["module"];
            return [];
          });
          if (kinds.length > 0) inserted.push(kinds);
        }
      }).observe(document, { childList: true, subtree: true });
    });
    await page.goto("/shop/home");
    await expect(page.locator("html")).toHaveAttribute("data-hydrated", "");
    const inserted = await page.evaluate(() => (window as unknown as { inserted: string[][] }).inserted);
    expect(inserted.length).toBeGreaterThan(1);
    for (const batch of inserted) expect(batch.length).toBeLessThanOrEqual(SCRIPTS_STARTED_PER_TASK);
    expect(inserted.flat().filter((kind) => kind === "module")).toHaveLength(1);
    expect(inserted.flat().at(-1)).toBe("module");
  });

  test("hydrate the page even when its main picture never arrives", async ({ page }) => {
    await signInByApi(page, DEMO_SHOPPER);
    await page.route(/\/(images|uploads)\//, () => {
      // Never answered.
    });
    await page.goto("/shop/listing", { waitUntil: "domcontentloaded" });
    await expect(page.locator("html")).toHaveAttribute("data-hydrated", "", { timeout: 10_000 });
    // Hydrated: a header link now loads the next page within this one.
    await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));
    await page.getByRole("link", { name: "Search" }).filter({ visible: true }).first().click();
    await expect(page).toHaveURL(/\/shop\/search$/);
    expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
  });

  test("hydrate the server's markup of the cards and the filters as it is, on every page that shows them", async ({
    page,
  }) => {
    // React reports markup that does not match what the browser renders (a hydration error) as an uncaught
    // error, and renders the page again from scratch.
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    page.on("console", (message) => {
      if (message.type() === "error" && /react|hydrat/i.test(message.text())) errors.push(message.text());
    });
    await signInByApi(page, DEMO_SHOPPER);
    for (const path of [
      "/shop/listing",
      "/shop/listing?category=men,women&size=M&inStock=true&sortBy=price-hightolow",
      "/shop/search?keyword=shirt",
      "/shop/home",
    ]) {
      await page.goto(path);
      await expect(page.locator(".product-card").first()).toBeVisible();
    }
    // Hydrated over the server's markup, the cards work as the page's own: a card opens its details.
    await page.locator(".product-card__link").first().click();
    await expect(page.getByRole("dialog")).toBeVisible();
    expect(errors).toEqual([]);
  });
});

test.describe("the page's stylesheets", () => {
  test.skip(
    ({ javaScriptEnabled }) => javaScriptEnabled === false,
    "linked once the shopper moves in the browser",
  );

  test("are fetched into the cache once the page has hydrated, but not applied again over the inline copy", async ({
    page,
  }) => {
    await signInByApi(page, DEMO_SHOPPER);
    const fetched = page.waitForResponse(/\/build\/assets\/storefront-[^/]+\.css$/);
    await page.goto("/shop/listing");
    await expect(page.locator("html")).toHaveAttribute("data-hydrated", "");
    await fetched;
    await expect(page.locator('link[rel="prefetch"][as="style"][href*="/storefront-"]')).toHaveCount(1);
    await expect(page.locator('link[rel="stylesheet"]')).toHaveCount(0);
    await expect(page.locator("style[data-inline-styles]")).not.toHaveAttribute("media", "not all");
    await expect(page.locator(".product-grid")).toHaveCSS("display", "grid");
  });

  test("are linked at the shopper's first move to another page, which waits for them, and the inline copy gives way", async ({
    page,
  }) => {
    await signInByApi(page, DEMO_SHOPPER);
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const inline = page.locator("style[data-inline-styles]");
    await page.goto("/shop/listing");
    await expect(page.locator("html")).toHaveAttribute("data-hydrated", "");
    // From here on the storefront's sheet is slow to come (a routed request goes past the browser's cache).
    await page.route(/\/build\/assets\/storefront-[^/]+\.css$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole("link", { name: "Search" }).filter({ visible: true }).first().click();
    // React Router moves once the next page's sheets have come; until then the page stays as it was.
    await expect(page.locator(".product-grid")).toHaveCSS("display", "grid");
    await expect(page).toHaveURL(/\/shop\/listing$/);
    await expect(inline).not.toHaveAttribute("media", "not all");
    release();
    await expect(page).toHaveURL(/\/shop\/search$/);
    await expect(page.locator('link[rel="stylesheet"][href*="/storefront-"]')).toHaveCount(1);
    await expect(inline).toHaveAttribute("media", "not all");
    await expect(page.locator(".shop-header")).toHaveCSS("position", "sticky");
  });

  test("once fetched, are imported from the browser's cache by the shopper's next pages, which keep their look", async ({
    page,
  }) => {
    await signInByApi(page, DEMO_SHOPPER);
    const inline = page.locator("style[data-inline-styles]");
    const fetched = page.waitForResponse(/\/build\/assets\/storefront-[^/]+\.css$/);
    await page.goto("/shop/listing");
    await fetched;
    await page.reload();
    expect(await inline.textContent()).toMatch(/^@import url\("\/build\/assets\/app-[^"]+\.css"\);/);
    await expect(page.locator(".product-grid")).toHaveCSS("display", "grid");
    await expect(page.locator(".product-card").first()).toBeVisible();
  });
});

test.describe("a shopper's next page", () => {
  test("imports the stylesheets the first one carried and keeps its look, with or without JavaScript", async ({
    page,
  }) => {
    await signInByApi(page, DEMO_SHOPPER);
    await page.goto("/shop/listing");
    await page.goto("/shop/listing?sortBy=price-lowtohigh");
    const inline = page.locator("style[data-inline-styles]");
    expect(await inline.textContent()).toMatch(/^@import url\("\/build\/assets\/app-[^"]+\.css"\);/);
    await expect(page.locator(".product-grid")).toHaveCSS("display", "grid");
    await expect(page.locator(".shop-header")).toHaveCSS("position", "sticky");
  });
});
