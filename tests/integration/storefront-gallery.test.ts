import { beforeEach, describe, expect, it } from "vitest";
import * as productPage from "../../app/routes/shop.product.$id";
import { createProduct as addProduct } from "../../app/services/product-writer.server";
import { resetDatabase } from "../support/database";
import { renderShopPage } from "../support/render-page";
import { callRoute } from "../support/requests";
import { signedIn, type Caller } from "./cart-support";

/** The product page's gallery as a browser without JavaScript receives it. */

const TEE = "/images/products/dri-fit-training-tee.svg";
const POLO = "/images/products/essentials-pique-polo-shirt.svg";
const CAP = "/images/products/heritage-logo-cap.svg";

let shopper: Caller;
beforeEach(async () => {
  await resetDatabase();
  shopper = await signedIn();
});

async function galleryProduct() {
  return addProduct({
    title: "Gallery Tee",
    description: "A tee with three pictures",
    category: "men",
    brand: "nike",
    price: 25,
    variants: [
      { size: "M", colour: "black", totalStock: 3 },
      { size: "M", colour: "white", totalStock: 4 },
    ],
    images: [
      { url: TEE, alt: "Front" },
      { url: POLO, alt: "Back in black", colour: "black" },
      { url: CAP, alt: "Detail in white", colour: "white" },
    ],
  });
}

const render = (path: string) => renderShopPage(path, productPage, shopper.cookie, "product/:id");

function gallery(document: Document) {
  const region = document.querySelector<HTMLElement>('section[aria-label="Pictures"]');
  expect(region, "a region named Pictures").not.toBeNull();
  const slides = [...region!.querySelectorAll<HTMLElement>(".gallery__slide")];
  const thumbs = [...region!.querySelectorAll<HTMLAnchorElement>("a.gallery__thumb")];
  return { region: region!, slides, thumbs };
}

describe("the product page's pictures", () => {
  it("the loader answers every picture in order", async () => {
    const product = await galleryProduct();
    const response = await callRoute(productPage.loader, `/shop/product/${product._id}`, {
      params: { id: product._id },
      cookie: shopper.cookie,
    });
    const data = (await response.json()) as { product: { images: { url: string; alt: string }[] } };
    expect(data.product.images.map((picture) => [picture.url, picture.alt])).toEqual([
      [TEE, "Front"],
      [POLO, "Back in black"],
      [CAP, "Detail in white"],
    ]);
  });

  it("renders every picture, the first eagerly, and thumbnails that link to each one", async () => {
    const product = await galleryProduct();
    const { slides, thumbs } = gallery(await render(`/shop/product/${product._id}`));
    const images = slides.map((slide) => slide.querySelector("img")!);
    expect(images.map((image) => image.getAttribute("src"))).toEqual([TEE, POLO, CAP]);
    expect(images.map((image) => image.getAttribute("alt"))).toEqual([
      "Front",
      "Back in black",
      "Detail in white",
    ]);
    expect(images.map((image) => image.getAttribute("loading"))).toEqual(["eager", "lazy", "lazy"]);
    expect(images.map((image) => [image.getAttribute("width"), image.getAttribute("height")])).toEqual([
      ["600", "600"],
      ["600", "600"],
      ["600", "600"],
    ]);

    expect(thumbs.map((thumb) => thumb.getAttribute("aria-label"))).toEqual([
      "Show picture 1 of 3: Front",
      "Show picture 2 of 3: Back in black",
      "Show picture 3 of 3: Detail in white",
    ]);
    thumbs.forEach((thumb, index) => {
      const href = thumb.getAttribute("href")!;
      const [query, fragment] = href.split("#");
      expect(new URLSearchParams(query).get("picture")).toBe(String(index + 1));
      // The fragment names the slide that holds that picture.
      expect(
        slides
          .find((slide) => slide.id === fragment)
          ?.querySelector("img")
          ?.getAttribute("src"),
      ).toBe([TEE, POLO, CAP][index]);
    });
    expect(thumbs.map((thumb) => thumb.getAttribute("aria-current"))).toEqual(["true", null, null]);
  });

  it("?picture=2 shows the second picture first, loaded eagerly, its thumbnail current", async () => {
    const product = await galleryProduct();
    const { slides, thumbs } = gallery(await render(`/shop/product/${product._id}?picture=2`));
    expect(thumbs.map((thumb) => thumb.getAttribute("aria-current"))).toEqual([null, "true", null]);
    expect(slides[1]!.style.order).toBe("-1");
    expect(slides[1]!.querySelector("img")!.getAttribute("loading")).toBe("eager");
    expect(slides[0]!.querySelector("img")!.getAttribute("loading")).toBe("lazy");
  });

  it("?colour=white shows that colour's first picture first", async () => {
    const product = await galleryProduct();
    const { slides, thumbs } = gallery(await render(`/shop/product/${product._id}?colour=white`));
    expect(thumbs.map((thumb) => thumb.getAttribute("aria-current"))).toEqual([null, null, "true"]);
    expect(slides[2]!.style.order).toBe("-1");
  });

  it("a product with one picture shows it without thumbnails", async () => {
    const product = await addProduct({
      title: "One Picture",
      description: "Only one",
      category: "men",
      brand: "nike",
      price: 10,
      totalStock: 1,
      image: TEE,
    });
    const { slides, thumbs } = gallery(await render(`/shop/product/${product._id}`));
    expect(slides).toHaveLength(1);
    expect(slides[0]!.querySelector("img")!.getAttribute("alt")).toBe("One Picture");
    expect(thumbs).toHaveLength(0);
  });
});
