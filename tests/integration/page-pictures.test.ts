import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "../../app/models/db.server";
import { loader as adminOrderLoader } from "../../app/routes/admin.orders.$orderId";
import * as checkoutPage from "../../app/routes/shop.checkout";
import * as cartPage from "../../app/routes/shop.cart";
import * as homePage from "../../app/routes/shop.home";
import * as listingPage from "../../app/routes/shop.listing";
import * as orderPage from "../../app/routes/shop.account.orders.$orderId";
import * as productPage from "../../app/routes/shop.product.$id";
import { addToCart } from "../../app/services/cart-lines.server";
import { CARD_SIZES } from "../../app/components/ProductCard";
import { SLIDE_SIZES } from "../../app/components/ProductGallery";
import { pictureSizes } from "../../app/lib/shared/images";
import { createTestUser, resetDatabase } from "../support/database";
import { callRoute, sessionCookieFor } from "../support/requests";
import { renderShopPage } from "../support/render-page";
import { createOrder, createProduct } from "../support/storefront";

/**
 * Rule 14 of docs/architecture.md on every page kind: an uploaded photo is sent at the width its box needs (srcset in AVIF
 * and WebP, sizes), in a box reserved by width/height, and only the first screen loads at once.
 */

beforeEach(resetDatabase);

const PHOTO_KEY = "0b9a3c1e-7a51-4d41-9d39-7c5f0e3a2b10";
const PHOTO = `/uploads/${PHOTO_KEY}.jpg`;

async function recordPhoto(key = `${PHOTO_KEY}.jpg`) {
  await getDb().sequelize.query(
    `INSERT INTO uploaded_images (key, width, height, content_type, widths)
     VALUES (:key, 2400, 3200, 'image/jpeg', '{160,320,480,640,960,1280,1920,2400}')`,
    { replacements: { key } },
  );
}

/**
 * The <picture> of the photo in `scope`, checked whole: both sources, the sizes (the layout's width, `sizes`,
 * with the density cap) and the img's box.
 */
function expectPhotoPicture(scope: Element | Document, sizes: string) {
  const img = scope.querySelector(`picture img[src^="/uploads/${PHOTO_KEY}-w"]`);
  expect(img, "an <img> of the photo's stored width inside a <picture>").not.toBeNull();
  const picture = img!.closest("picture")!;
  const avif = picture.querySelector('source[type="image/avif"]')!;
  const webp = picture.querySelector('source[type="image/webp"]')!;
  expect(avif.getAttribute("srcset")).toContain(`/uploads/${PHOTO_KEY}-w320.avif 320w`);
  expect(avif.getAttribute("srcset")).toContain(`/uploads/${PHOTO_KEY}-w2400.avif 2400w`);
  expect(webp.getAttribute("srcset")).toContain(`/uploads/${PHOTO_KEY}-w160.webp 160w`);
  expect(avif.getAttribute("srcset")).not.toContain("2560w");
  expect(avif.getAttribute("sizes")).toBe(pictureSizes(sizes));
  expect(img!.getAttribute("sizes")).toBe(pictureSizes(sizes));
  expect(img!.getAttribute("width")).toBe("2400");
  expect(img!.getAttribute("height")).toBe("3200");
  return img!;
}

describe("pictures on the pages", () => {
  it("the listing's cards carry srcset, sizes and size; only the first row is eager, one fetched first", async () => {
    await recordPhoto();
    for (let index = 0; index < 6; index += 1) {
      await createProduct({ title: `Photo tee ${index}`, image: PHOTO });
    }
    const ann = await createTestUser();
    const document = await renderShopPage("/shop/listing", listingPage, await sessionCookieFor(ann.id));
    const images = [...document.querySelectorAll(".product-card__media img")];
    expect(images).toHaveLength(6);
    expectPhotoPicture(images[0]!.closest(".product-card")!, CARD_SIZES.listing);
    expect(images[0]!.getAttribute("sizes")).toContain("(max-width: 639px) calc(50vw - 22px)");
    expect(images.map((img) => img.getAttribute("loading"))).toEqual([
      "eager",
      "eager",
      "eager",
      "eager",
      "lazy",
      "lazy",
    ]);
    expect(document.querySelectorAll('img[fetchpriority="high"]')).toHaveLength(1);
    expect(images[0]!.getAttribute("fetchpriority")).toBe("high");
  });

  it("the product page's gallery sends its photos at the slide's width: the shown one first, thumbnails at 64px", async () => {
    await recordPhoto();
    const back = "1c9a3c1e-7a51-4d41-9d39-7c5f0e3a2b11";
    await recordPhoto(`${back}.jpg`);
    const product = await createProduct({ title: "Photo tee", image: PHOTO });
    await getDb().sequelize.query(
      `INSERT INTO product_images (product_id, position, url, alt) VALUES (:id, 0, :first, 'Front'), (:id, 1, :second, 'Back')`,
      { replacements: { id: product.id, first: PHOTO, second: `/uploads/${back}.jpg` } },
    );
    const ann = await createTestUser();
    const document = await renderShopPage(
      `/shop/product/${product.id}`,
      productPage,
      await sessionCookieFor(ann.id),
      "product/:id",
    );
    const slide = document.querySelector(".gallery__slide")!;
    const shown = expectPhotoPicture(slide, SLIDE_SIZES);
    expect(shown.getAttribute("sizes")).toMatch(/^\(min-width: 768px\)/);
    expect(shown.getAttribute("fetchpriority")).toBe("high");
    expect(document.querySelectorAll('img[fetchpriority="high"]')).toHaveLength(1);
    const thumb = document.querySelector(".gallery__thumb img")!;
    expect(thumb.getAttribute("sizes")).toBe(pictureSizes("64px"));
    expect(thumb.getAttribute("loading")).toBe("lazy");
  });

  it("the cart's lines carry the photo at the line's 72px box", async () => {
    await recordPhoto();
    const product = await createProduct({ image: PHOTO });
    const ann = await createTestUser();
    await addToCart(ann.id, product.id, 1);
    const document = await renderShopPage("/shop/cart", cartPage, await sessionCookieFor(ann.id));
    const img = expectPhotoPicture(document.querySelector('[data-testid="cart-line"]')!, "72px");
    expect(img.getAttribute("loading")).toBe("lazy");
  });

  it("the checkout's lines carry the photo at the line's 64px box", async () => {
    await recordPhoto();
    const product = await createProduct({ image: PHOTO });
    const ann = await createTestUser();
    await addToCart(ann.id, product.id, 1);
    const document = await renderShopPage("/shop/checkout", checkoutPage, await sessionCookieFor(ann.id));
    expectPhotoPicture(document.querySelector('[data-testid="checkout-item"]')!, "64px");
  });

  it("the shopper's order details carry each line's photo; the admin's read the same size", async () => {
    await recordPhoto();
    const product = await createProduct({ image: PHOTO });
    const ann = await createTestUser();
    const order = await createOrder(ann.id, [product.id]);
    await getDb().sequelize.query(`UPDATE order_items SET image = :image WHERE order_id = :id`, {
      replacements: { image: PHOTO, id: order.id },
    });
    const document = await renderShopPage(
      `/shop/account/orders/${order.id}`,
      orderPage,
      await sessionCookieFor(ann.id),
      "account/orders/:orderId",
    );
    expectPhotoPicture(document.querySelector(".order-details__items")!, "48px");

    const admin = await createTestUser({ role: "admin" });
    const response = await callRoute(adminOrderLoader, `/admin/orders/${order.id}`, {
      cookie: await sessionCookieFor(admin.id),
      params: { orderId: order.id },
    });
    const { order: adminOrder } = (await response.json()) as {
      order: { cartItems: { imageWidth: number; imageHeight: number }[] };
    };
    expect(adminOrder.cartItems[0]).toMatchObject({ imageWidth: 2400, imageHeight: 3200 });
  });

  it("the home banner's first slide is the one picture fetched first, the cards below all lazy", async () => {
    await recordPhoto();
    await getDb().sequelize.query(
      `INSERT INTO feature_images (image, created_at)
     VALUES (:image, now() - interval '1 minute'), (:drawing, now())`,
      {
        replacements: { image: PHOTO, drawing: "/images/banners/banner-1.svg" },
      },
    );
    await createProduct({ image: PHOTO });
    const ann = await createTestUser();
    const document = await renderShopPage("/shop/home", homePage, await sessionCookieFor(ann.id));
    const slides = [...document.querySelectorAll(".banner__slide img")];
    const first = expectPhotoPicture(document.querySelector(".banner__slide")!, "100vw");
    expect(first.getAttribute("fetchpriority")).toBe("high");
    expect(first.getAttribute("loading")).toBe("eager");
    // The drawing: a plain img in the banner's box.
    expect(slides[1]!.closest("picture")).toBeNull();
    expect(slides[1]!.getAttribute("loading")).toBe("lazy");
    expect(document.querySelectorAll('img[fetchpriority="high"]')).toHaveLength(1);
    expect(
      [...document.querySelectorAll(".product-card__media img")].map((img) => img.getAttribute("loading")),
    ).toEqual(["lazy"]);
  });
});
