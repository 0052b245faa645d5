import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "../../app/models/db.server";
import * as alertsPage from "../../app/routes/shop.account_.alerts";
import * as wishlistPage from "../../app/routes/shop.account_.wishlist";
import * as listingPage from "../../app/routes/shop.listing";
import * as productPage from "../../app/routes/shop.product.$id";
import * as unsubscribePage from "../../app/routes/stock-alerts.unsubscribe";
import { loader as demandApi } from "../../app/routes/api.admin.stock-alerts";
import { loader as salesApi } from "../../app/routes/api.admin.reports.sales";
import { action as wishlistApi } from "../../app/routes/api.shop.wishlist";
import { loader as wishlistListApi } from "../../app/routes/api.shop.wishlist.$userId";
import { unsubscribeUrlFor } from "../../app/services/stock-alert-links.server";
import { createStockAlert, listStockAlerts } from "../../app/services/stock-alerts.server";
import { listWishlist } from "../../app/services/wishlist.server";
import { resetDatabase } from "../support/database";
import { renderShopPage } from "../support/render-page";
import { callRoute } from "../support/requests";
import { flashOf, quantityInCart, signedIn, type Caller } from "./cart-support";
import { createProductWithVariants } from "./checkout-support";

/**
 * The pages of back-in-stock alerts and the wishlist, as a browser without
 * JavaScript gets them: server-rendered forms that post and redirect.
 */

let shopper: Caller;
let tee: Awaited<ReturnType<typeof createProductWithVariants>>;

beforeEach(async () => {
  await resetDatabase();
  shopper = await signedIn();
  tee = await createProductWithVariants(
    [
      { size: "S", totalStock: 4 },
      { size: "M", totalStock: 0 },
      { size: "L", totalStock: 2 },
    ],
    { title: "Page Tee", price: "30.00", category: "men" },
  );
});

const productPath = () => `/shop/product/${tee.product.id}`;
const renderProduct = (path = productPath()) =>
  renderShopPage(path, productPage, shopper.cookie, "product/:id");
const post = (
  fn: typeof productPage.action,
  path: string,
  form: Record<string, string>,
  cookie = shopper.cookie,
) => callRoute(fn as never, path, { form, cookie, params: { id: tee.product.id } });

describe("Notify me when it's back", () => {
  it("is offered for the sold-out size only, and a click puts the shopper on the list without JavaScript", async () => {
    const page = await renderProduct();
    const form = page.querySelector('[data-testid="back-in-stock"]')!;
    expect(form.tagName).toBe("FORM");
    expect(form.textContent).toContain("Sold out in one size");
    const buttons = form.querySelectorAll("button");
    expect(buttons).toHaveLength(1);
    // What the browser sends: the form's fields and the clicked button's name and value.
    const fields = {
      ...Object.fromEntries([...form.querySelectorAll("input")].map((input) => [input.name, input.value])),
      [buttons[0]!.name]: buttons[0]!.value,
    };
    expect(fields).toEqual({ intent: "stock-alert", productId: tee.product.id, variantId: tee.bySize.M!.id });

    const answer = await post(productPage.action, productPath(), fields);
    expect(answer.status).toBe(302);
    expect(answer.headers.get("Location")).toBe(productPath());
    expect(await flashOf(answer)).toMatchObject({
      type: "success",
      message: "We will mail you when it is back",
    });
    expect((await listStockAlerts(shopper.id)).map((alert) => [alert.size, alert.status])).toEqual([
      ["M", "waiting"],
    ]);
    const after = await renderProduct();
    expect(after.querySelector('[data-testid="back-in-stock"]')!.textContent).toContain(
      "M: we will mail you when it is back",
    );
    expect(after.querySelector('[data-testid="back-in-stock"] button')).toBeNull();
  });

  it("refuses a size in stock with 409 and its message, and works from the listing's dialog too", async () => {
    const refused = await post(productPage.action, productPath(), {
      intent: "stock-alert",
      productId: tee.product.id,
      variantId: tee.bySize.S!.id,
    });
    expect(refused.status).toBe(409);
    const dialog = await renderShopPage(
      `/shop/listing?product=${tee.product.id}`,
      listingPage,
      shopper.cookie,
    );
    expect(
      dialog.querySelector('[data-testid="product-dialog"] [data-testid="back-in-stock"] button'),
    ).not.toBeNull();
    const fromDialog = await callRoute(
      listingPage.action as never,
      `/shop/listing?product=${tee.product.id}`,
      {
        form: { intent: "stock-alert", productId: tee.product.id, variantId: tee.bySize.M!.id },
        cookie: shopper.cookie,
      },
    );
    expect(fromDialog.status).toBe(302);
    expect(fromDialog.headers.get("Location")).toBe(`/shop/listing?product=${tee.product.id}`);
  });

  it("the mail's link (?variant=) opens the product with that size chosen", async () => {
    const page = await renderProduct(`${productPath()}?variant=${tee.bySize.L!.id}`);
    const checked = page.querySelector<HTMLInputElement>('input[name="variantId"]:checked');
    expect(checked?.value).toBe(tee.bySize.L!.id);
    // A sold-out or unknown variant in the link chooses nothing.
    const soldOut = await renderProduct(`${productPath()}?variant=${tee.bySize.M!.id}`);
    expect(soldOut.querySelector('input[name="variantId"]:checked')).toBeNull();
  });
});

describe("the wishlist", () => {
  it("the heart saves the product once and fills; the page shows the price now against when saved", async () => {
    const page = await renderProduct();
    const heart = page.querySelector('[data-testid="wishlist-heart"]')!;
    expect(heart.getAttribute("aria-pressed")).toBe("false");
    const form = { intent: "wishlist-add", productId: tee.product.id };
    expect((await post(productPage.action, productPath(), form)).status).toBe(302);
    const again = await post(productPage.action, productPath(), form);
    expect(await flashOf(again)).toMatchObject({ message: "Already in your wishlist" });
    expect(await listWishlist(shopper.id)).toHaveLength(1);
    const after = await renderProduct();
    expect(after.querySelector('[data-testid="wishlist-heart"]')!.getAttribute("aria-pressed")).toBe("true");

    // The price drops by 7.55 after it was saved.
    await getDb().sequelize.query("UPDATE products SET sale_price = 22.45 WHERE id = :id", {
      replacements: { id: tee.product.id },
    });
    const wishlist = await renderShopPage("/shop/account/wishlist", wishlistPage, shopper.cookie);
    const item = wishlist.querySelector('[data-testid="wishlist-item"]')!;
    expect(item.textContent).toContain("When saved: $30.00");
    expect(item.textContent).toContain("$7.55 less than when you saved it");
    expect(item.textContent).toContain("In stock");
    // Move to cart asks for a size among those in stock.
    const options = [...item.querySelectorAll("select option")].map((option) => option.textContent);
    expect(options).toEqual(["Choose", "S", "L"]);
  });

  it("move to cart needs a size, then puts it in the cart and takes it off the list; remove takes it off", async () => {
    await post(productPage.action, productPath(), { intent: "wishlist-add", productId: tee.product.id });
    const [item] = await listWishlist(shopper.id);
    const move = (form: Record<string, string>) =>
      callRoute(wishlistPage.action as never, "/shop/account/wishlist", { form, cookie: shopper.cookie });
    const noSize = await move({ intent: "move-to-cart", itemId: item!._id });
    expect(noSize.status).toBe(400);
    const moved = await move({ intent: "move-to-cart", itemId: item!._id, variantId: tee.bySize.L!.id });
    expect(moved.status).toBe(302);
    expect(await quantityInCart(shopper.id, tee.product.id)).toBe(1);
    expect(await listWishlist(shopper.id)).toEqual([]);

    await post(productPage.action, productPath(), { intent: "wishlist-add", productId: tee.product.id });
    const [second] = await listWishlist(shopper.id);
    expect((await move({ intent: "remove", itemId: second!._id })).status).toBe(302);
    expect((await move({ intent: "remove", itemId: second!._id })).status).toBe(404);
  });

  it("the JSON API keeps an item once (201, then 200) with its price when added, and drops deleted products", async () => {
    const other = await signedIn();
    const body = { userId: shopper.id, productId: tee.product.id, variantId: tee.bySize.M!.id };
    const add = (json: unknown, cookie = shopper.cookie) =>
      callRoute(wishlistApi as never, "/api/shop/wishlist", { json, cookie });
    expect((await add(body)).status).toBe(201);
    expect((await add(body)).status).toBe(200);
    expect((await add(body, other.cookie)).status).toBe(403);
    expect((await add({ ...body, variantId: "00000000-0000-4000-8000-000000000000" })).status).toBe(404);
    const listed = await callRoute(wishlistListApi as never, `/api/shop/wishlist/${shopper.id}`, {
      cookie: shopper.cookie,
      params: { userId: shopper.id },
    });
    const { data } = (await listed.json()) as { data: Record<string, unknown>[] };
    expect(data).toEqual([
      expect.objectContaining({ size: "M", price: 30, salePrice: 0, priceWhenAdded: 30, inStock: false }),
    ]);
    await getDb().sequelize.query("DELETE FROM products WHERE id = :id", {
      replacements: { id: tee.product.id },
    });
    expect(await listWishlist(shopper.id)).toEqual([]);
  });
});

describe("the account's alerts and the unsubscribe link", () => {
  it("lists the alerts with remove", async () => {
    await createStockAlert(shopper.id, { productId: tee.product.id, variantId: tee.bySize.M!.id });
    const page = await renderShopPage("/shop/account/alerts", alertsPage, shopper.cookie);
    const row = page.querySelector('[data-testid="stock-alert"]')!;
    expect(row.textContent).toContain("Page Tee");
    expect(row.textContent).toContain("Waiting since");
    const alertId = row.querySelector<HTMLInputElement>('input[name="alertId"]')!.value;
    const removed = await callRoute(alertsPage.action as never, "/shop/account/alerts", {
      form: { intent: "remove", alertId },
      cookie: shopper.cookie,
    });
    expect(removed.status).toBe(302);
    expect(await listStockAlerts(shopper.id)).toEqual([]);
  });

  it("the signed link ends every waiting alert without signing in; a forged one does nothing", async () => {
    await createStockAlert(shopper.id, { productId: tee.product.id, variantId: tee.bySize.M!.id });
    const link = new URL(unsubscribeUrlFor(shopper.id));
    const path = `${link.pathname}${link.search}`;
    expect((await callRoute(unsubscribePage.loader as never, path)).status).toBe(200);
    const forged = path.replace(/sig=[^&]+/, "sig=forged");
    expect((await callRoute(unsubscribePage.loader as never, forged)).status).toBe(400);
    expect((await callRoute(unsubscribePage.action as never, forged, { form: {} })).status).toBe(400);
    expect(await listStockAlerts(shopper.id)).toHaveLength(1);
    const done = await callRoute(unsubscribePage.action as never, path, { form: {} });
    expect(done.status).toBe(200);
    expect(await listStockAlerts(shopper.id)).toEqual([]);
  });
});

describe("the owner sees the demand", () => {
  it("low-stock rows and the demand list carry how many shoppers wait", async () => {
    const admin = await signedIn("admin");
    const others = await Promise.all([signedIn(), signedIn()]);
    for (const caller of [shopper, ...others])
      await createStockAlert(caller.id, { productId: tee.product.id, variantId: tee.bySize.M!.id });
    const sales = await callRoute(salesApi as never, "/api/admin/reports/sales", { cookie: admin.cookie });
    const report = ((await sales.json()) as { data: { lowStock: { size: string; waiting: number }[] } }).data;
    expect(report.lowStock.map((row) => [row.size, row.waiting])).toEqual([
      ["M", 3],
      ["L", 0],
      ["S", 0],
    ]);
    const demand = await callRoute(demandApi as never, "/api/admin/stock-alerts?status=waiting", {
      cookie: admin.cookie,
    });
    expect(((await demand.json()) as { data: unknown[] }).data).toEqual([
      expect.objectContaining({ variantId: tee.bySize.M!.id, waiting: 3, totalStock: 0 }),
    ]);
    expect(
      (await callRoute(demandApi as never, "/api/admin/stock-alerts?status=nope", { cookie: admin.cookie }))
        .status,
    ).toBe(400);
    expect(
      (await callRoute(demandApi as never, "/api/admin/stock-alerts", { cookie: shopper.cookie })).status,
    ).toBe(403);
  });
});
