import { QueryTypes } from "sequelize";
import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "../../app/models/db.server";
import type { Category } from "../../app/lib/shared/catalog-options";
import { loader as rootLoader } from "../../app/root";
import { loader as shopLayoutLoader } from "../../app/routes/shop";
import * as accountOrderPage from "../../app/routes/shop.account.orders.$orderId";
import * as cartPage from "../../app/routes/shop.cart";
import * as listingPage from "../../app/routes/shop.listing";
import * as productPage from "../../app/routes/shop.product.$id";
import { addToCart } from "../../app/services/cart-lines.server";
import { getCartView } from "../../app/services/cart.server";
import { resetDatabase } from "../support/database";
import { renderShopPage } from "../support/render-page";
import { callRoute } from "../support/requests";
import { createProduct, loadPage } from "../support/storefront";
import { flashOf, signedIn, type Caller } from "./cart-support";

/**
 * The storefront sells sizes (decision 0012): the picker on the product page
 * and in the dialog, the refusal beside it, "Choose size" on the cards, cart
 * lines per variant, the cart's notices, the listing's size, colour, stock
 * and price filters, and the size in the order details. Pages are rendered as
 * a browser without JavaScript receives them.
 */

interface VariantFixture {
  sku: string;
  size?: string | null;
  colour?: string | null;
  totalStock: number;
  price?: string;
  salePrice?: string | null;
}

/** A product sold in `variants`, written in one transaction (so it gets no default variant). */
async function createVariantProduct(
  title: string,
  variants: VariantFixture[],
  options: { category?: Category; price?: string } = {},
) {
  const { Product, ProductVariant } = getDb().models;
  return getDb().sequelize.transaction(async (transaction) => {
    const product = await Product.create(
      {
        title,
        description: "Sold in sizes.",
        category: options.category ?? "men",
        brand: "nike",
        price: options.price ?? "20.00",
        salePrice: null,
        totalStock: 0,
        image: "/images/products/test.svg",
      },
      { transaction },
    );
    const rows = [];
    for (const [position, variant] of variants.entries()) {
      const row = await ProductVariant.create(
        {
          productId: product.id,
          sku: variant.sku,
          size: variant.size ?? null,
          colour: variant.colour ?? null,
          position,
          totalStock: variant.totalStock,
          price: variant.price ?? null,
          salePrice: variant.salePrice ?? null,
        } as never,
        { transaction },
      );
      rows.push(row.get({ plain: true }));
    }
    return { id: product.id, variants: rows };
  });
}

let shopper: Caller;

beforeEach(async () => {
  await resetDatabase();
  shopper = await signedIn();
});

const renderProduct = async (path: string) =>
  renderShopPage(path, productPage, shopper.cookie, "product/:id");

function postCart(form: Record<string, string>) {
  return callRoute(cartPage.action, "/shop/cart", { form, cookie: shopper.cookie });
}

describe("the product page's size picker", () => {
  it("offers each size as a labelled radio in the add-to-cart form, a sold-out one disabled and said to be sold out", async () => {
    const tee = await createVariantProduct("Sized Tee", [
      { sku: "TEE-S", size: "S", totalStock: 5 },
      { sku: "TEE-M", size: "M", totalStock: 0 },
      { sku: "TEE-L", size: "L", totalStock: 12 },
    ]);
    const document = await renderProduct(`/shop/product/${tee.id}`);
    const form = document.querySelector<HTMLFormElement>('form[action="/shop/cart"]')!;
    const picker = form.querySelector("fieldset.variant-picker")!;
    expect(picker.querySelector("legend")?.textContent).toBe("Size");
    const options = [
      ...picker.querySelectorAll<HTMLInputElement>('input[type="radio"][name="variantId"]'),
    ].map((input) => ({
      value: input.value,
      label: document.querySelector(`label[for="${input.id}"]`)?.textContent,
      disabled: input.disabled,
      checked: input.checked,
    }));
    const [s, m, l] = tee.variants;
    expect(options).toEqual([
      { value: s!.id, label: "S", disabled: false, checked: false },
      { value: m!.id, label: "MM, sold out", disabled: true, checked: false },
      { value: l!.id, label: "L", disabled: false, checked: false },
    ]);
    // "sold out" is for screen readers only; the tile shows it struck through.
    expect(picker.querySelector(`label[for$="${m!.id}"] .visually-hidden`)?.textContent).toBe("M, sold out");
  });

  it("names each size 'M' and shows each price when the prices differ", async () => {
    const hoodie = await createVariantProduct("Priced Hoodie", [
      { sku: "PH-M", size: "M", totalStock: 3 },
      { sku: "PH-L", size: "L", totalStock: 3, price: "25.00" },
    ]);
    const document = await renderProduct(`/shop/product/${hoodie.id}`);
    const picker = document.querySelector("fieldset.variant-picker")!;
    const labels = [...picker.querySelectorAll("label")].map((label) => label.textContent);
    expect(labels).toEqual(["M$20.00", "L$25.00"]);
  });

  it("shows no picker for a product with one variant, whose form is today's", async () => {
    const cap = await createProduct({ title: "Plain Cap", totalStock: 4 });
    const document = await renderProduct(`/shop/product/${cap.id}`);
    expect(document.querySelector("fieldset.variant-picker")).toBeNull();
    expect(document.querySelector('input[name="variantId"]')).toBeNull();
  });
});

describe("the picker of a product in sizes and colours", () => {
  /** Black in S, M (sold out), L; white in M and L (both sold out); navy in XS only (sold out). */
  const trainingTee = () =>
    createVariantProduct("Two-way Tee", [
      { sku: "TW-XS-NVY", size: "XS", colour: "navy", totalStock: 0 },
      { sku: "TW-S-BLK", size: "S", colour: "black", totalStock: 4 },
      { sku: "TW-M-BLK", size: "M", colour: "black", totalStock: 0 },
      { sku: "TW-M-WHT", size: "M", colour: "white", totalStock: 0 },
      { sku: "TW-L-BLK", size: "L", colour: "black", totalStock: 6 },
      { sku: "TW-L-WHT", size: "L", colour: "white", totalStock: 0, price: "24.00" },
    ]);

  const groupsOf = (document: Document) => {
    const form = document.querySelector<HTMLFormElement>('form[action="/shop/cart"]')!;
    return [...form.querySelectorAll("fieldset.variant-picker")].map((group) => ({
      legend: group.querySelector("legend")?.textContent,
      options: [...group.querySelectorAll<HTMLInputElement>('input[type="radio"]')].map((input) => ({
        name: input.name,
        value: input.value,
        label: document.querySelector(`label[for="${input.id}"]`)?.textContent,
        disabled: input.disabled,
      })),
    }));
  };

  it("shows a Colour group (swatch and name) and a Size group in scale order, each disabled only when sold out in all of the other", async () => {
    const tee = await trainingTee();
    const document = await renderProduct(`/shop/product/${tee.id}`);
    expect(groupsOf(document)).toEqual([
      {
        legend: "Colour",
        options: [
          { name: "colour", value: "black", label: "Black", disabled: false },
          // White is sold out in every size, navy in its only one.
          { name: "colour", value: "white", label: "WhiteWhite, sold out", disabled: true },
          { name: "colour", value: "navy", label: "NavyNavy, sold out", disabled: true },
        ],
      },
      {
        legend: "Size",
        options: [
          { name: "size", value: "XS", label: "XSXS, sold out", disabled: true },
          { name: "size", value: "S", label: "S", disabled: false },
          // M is sold out in black and in white.
          { name: "size", value: "M", label: "MM, sold out", disabled: true },
          // L is sold out in white only: without JavaScript it stays open.
          { name: "size", value: "L", label: "L", disabled: false },
        ],
      },
    ]);
    const swatches = [
      ...document.querySelectorAll<HTMLElement>("fieldset.variant-picker .variant-option__swatch"),
    ];
    expect(swatches.map((swatch) => swatch.style.background)).toEqual([
      "rgb(29, 29, 31)", // #1d1d1f
      "rgb(247, 247, 245)", // #f7f7f5
      "rgb(31, 44, 76)", // #1f2c4c
    ]);
    expect(document.querySelector('input[name="variantId"]')).toBeNull();
  });

  it("shows shoe sizes with their US size beside them", async () => {
    const shoe = await createVariantProduct(
      "Two-way Runner",
      [
        { sku: "TR-42-BLK", size: "EU 42", colour: "black", totalStock: 2 },
        { sku: "TR-42-WHT", size: "EU 42", colour: "white", totalStock: 2 },
        { sku: "TR-41-WHT", size: "EU 41", colour: "white", totalStock: 2 },
      ],
      { category: "footwear" },
    );
    const document = await renderProduct(`/shop/product/${shoe.id}`);
    const sizes = groupsOf(document)[1]!;
    expect(sizes.legend).toBe("Size");
    expect(sizes.options.map((option) => [option.value, option.label])).toEqual([
      ["EU 41", "EU 41 (US 8)"],
      ["EU 42", "EU 42 (US 8.5)"],
    ]);
    // Ids stay valid although the values have spaces.
    for (const input of document.querySelectorAll('input[name="size"]')) expect(input.id).not.toMatch(/\s/);
  });

  it("adds the posted size and colour as that variant's line ('M · Black' in the cart)", async () => {
    const tee = await createVariantProduct("Picked Tee", [
      { sku: "PT-M-BLK", size: "M", colour: "black", totalStock: 3 },
      { sku: "PT-M-WHT", size: "M", colour: "white", totalStock: 3 },
    ]);
    const page = `/shop/product/${tee.id}`;
    const response = await postCart({
      intent: "add",
      productId: tee.id,
      size: "M",
      colour: "black",
      redirectTo: page,
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(page);
    expect(await flashOf(response)).toMatchObject({ type: "success", message: "Product is added to cart" });
    const cart = await renderShopPage("/shop/cart", cartPage, shopper.cookie);
    const line = cart.querySelector('[data-testid="cart-line"]')!;
    expect(line.querySelector('[data-testid="cart-line-variant"]')?.textContent).toBe("M · Black");
    expect(line.getAttribute("data-variant-id")).toBe(tee.variants[0]!.id);
  });

  it("with a colour but no size, comes back with 'Please choose a size' beside the Size group (and the colour asked again, as the page forgot it)", async () => {
    const tee = await trainingTee();
    const page = `/shop/product/${tee.id}`;
    const response = await postCart({ intent: "add", productId: tee.id, colour: "black", redirectTo: page });
    expect(response.headers.get("Location")).toBe(`${page}?choose=${tee.id}`);
    expect(await flashOf(response)).toMatchObject({ type: "error", message: "Please choose a size" });

    const document = await renderProduct(`${page}?choose=${tee.id}`);
    const [colours, sizes] = [...document.querySelectorAll("fieldset.variant-picker")];
    for (const [group, message] of [
      [colours!, "Please choose a colour"],
      [sizes!, "Please choose a size"],
    ] as const) {
      const error = group.querySelector(".variant-picker__error")!;
      expect(error.textContent).toBe(message);
      expect(group.getAttribute("aria-invalid")).toBe("true");
      expect(group.getAttribute("aria-describedby")).toBe(error.id);
      for (const radio of group.querySelectorAll('input[type="radio"]'))
        expect(radio.getAttribute("aria-describedby")).toBe(error.id);
    }
    expect(
      new Set([...document.querySelectorAll(".variant-picker__error")].map((error) => error.id)).size,
    ).toBe(2);
  });

  it("without a colour, asks for the colour; a pair not made is a 404 message, a sold-out pair the stock message, neither beside the picker", async () => {
    const tee = await trainingTee();
    const page = `/shop/product/${tee.id}`;
    const noColour = await postCart({ intent: "add", productId: tee.id, size: "S", redirectTo: page });
    expect(noColour.headers.get("Location")).toBe(`${page}?choose=${tee.id}`);
    expect(await flashOf(noColour)).toMatchObject({ type: "error", message: "Please choose a colour" });

    const notMade = await postCart({
      intent: "add",
      productId: tee.id,
      size: "S",
      colour: "white",
      redirectTo: page,
    });
    expect(notMade.headers.get("Location")).toBe(page);
    expect(await flashOf(notMade)).toMatchObject({
      type: "error",
      message: "This size is not sold for this product",
    });
    const soldOut = await postCart({
      intent: "add",
      productId: tee.id,
      size: "L",
      colour: "white",
      redirectTo: page,
    });
    expect(soldOut.headers.get("Location")).toBe(page);
    expect(await flashOf(soldOut)).toMatchObject({
      type: "error",
      message: "Only 0 quantity can be added for this item",
    });
  });

  it("answers a background submission with the refusal's own status: 400, 404, 409", async () => {
    const tee = await trainingTee();
    const statusOf = async (form: Record<string, string>) => {
      const response = await postCart({ intent: "add", productId: tee.id, ...form });
      return [response.status, ((await response.json()) as { toast: { message: string } }).toast.message];
    };
    expect(await statusOf({ size: "S" })).toEqual([400, "Please choose a colour"]);
    expect(await statusOf({ colour: "black" })).toEqual([400, "Please choose a size"]);
    expect(await statusOf({ size: "XS", colour: "black" })).toEqual([
      404,
      "This size is not sold for this product",
    ]);
    expect(await statusOf({ size: "M", colour: "black" })).toEqual([
      409,
      "Only 0 quantity can be added for this item",
    ]);
  });
});

describe("'Add to cart' without a size", () => {
  it("comes back to the page with 'Please choose a size' beside the picker, which it marks invalid", async () => {
    const tee = await createVariantProduct("Choosy Tee", [
      { sku: "CT-S", size: "S", totalStock: 5 },
      { sku: "CT-M", size: "M", totalStock: 5 },
    ]);
    const page = `/shop/product/${tee.id}`;
    const response = await postCart({ intent: "add", productId: tee.id, redirectTo: page });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(`${page}?choose=${tee.id}`);
    expect(await flashOf(response)).toMatchObject({ type: "error", message: "Please choose a size" });

    const document = await renderProduct(`${page}?choose=${tee.id}`);
    const picker = document.querySelector("fieldset.variant-picker")!;
    const message = picker.querySelector(".variant-picker__error")!;
    expect(message.textContent).toBe("Please choose a size");
    expect(picker.getAttribute("aria-invalid")).toBe("true");
    for (const radio of picker.querySelectorAll('input[type="radio"]')) {
      expect(radio.getAttribute("aria-describedby")).toBe(message.id);
      expect(radio.getAttribute("aria-invalid")).toBe("true");
    }
    // The page's own forms come back to the page without the refusal.
    const redirectTo = document.querySelector<HTMLInputElement>('input[name="redirectTo"]')!.value;
    expect(redirectTo).toBe(page);
  });

  it("asks for a colour when the variants differ only by colour", async () => {
    const scarf = await createVariantProduct(
      "Colour Scarf",
      [
        { sku: "SC-BLK", colour: "black", totalStock: 5 },
        { sku: "SC-RED", colour: "red", totalStock: 5 },
      ],
      { category: "accessories" },
    );
    const page = `/shop/product/${scarf.id}`;
    const response = await postCart({ intent: "add", productId: scarf.id, redirectTo: page });
    expect(response.headers.get("Location")).toBe(`${page}?choose=${scarf.id}`);
    const document = await renderProduct(`${page}?choose=${scarf.id}`);
    expect(document.querySelector("fieldset.variant-picker legend")?.textContent).toBe("Colour");
    expect(document.querySelector(".variant-picker__error")?.textContent).toBe("Please choose a colour");
  });

  it("an add with a size goes back to the page without the earlier refusal; other refusals carry none", async () => {
    const tee = await createVariantProduct("Second Try Tee", [
      { sku: "ST-S", size: "S", totalStock: 1 },
      { sku: "ST-M", size: "M", totalStock: 5 },
    ]);
    const page = `/shop/product/${tee.id}`;
    const [small] = tee.variants;
    const added = await postCart({
      intent: "add",
      productId: tee.id,
      variantId: small!.id,
      redirectTo: `${page}?choose=${tee.id}`,
    });
    expect(added.headers.get("Location")).toBe(page);
    // Past the stock: a toast, not a size question.
    const refused = await postCart({
      intent: "add",
      productId: tee.id,
      variantId: small!.id,
      redirectTo: page,
    });
    expect(refused.headers.get("Location")).toBe(page);
    expect(await flashOf(refused)).toMatchObject({ type: "error" });
    const document = await renderProduct(page);
    expect(document.querySelector(".variant-picker__error")).toBeNull();
  });

  it("in the listing's dialog, shows the message beside the dialog's picker", async () => {
    const tee = await createVariantProduct("Dialog Tee", [
      { sku: "DT-S", size: "S", totalStock: 5 },
      { sku: "DT-M", size: "M", totalStock: 5 },
    ]);
    const listing = `/shop/listing?product=${tee.id}`;
    const response = await postCart({ intent: "add", productId: tee.id, redirectTo: listing });
    const location = response.headers.get("Location")!;
    expect(location).toBe(`${listing}&choose=${tee.id}`);
    const document = await renderShopPage(location, listingPage, shopper.cookie);
    const dialog = document.querySelector('[data-testid="product-dialog"]')!;
    expect(dialog.querySelector(".variant-picker__error")?.textContent).toBe("Please choose a size");
  });
});

describe("the product card", () => {
  it("offers 'Choose size' (a link to the product page) for several variants, and keeps 'Add to cart' for one", async () => {
    const sized = await createVariantProduct("A Sized Tee", [
      { sku: "AS-S", size: "S", totalStock: 5 },
      { sku: "AS-M", size: "M", totalStock: 5 },
    ]);
    const coloured = await createVariantProduct(
      "B Coloured Cap",
      [
        { sku: "BC-BLK", colour: "black", totalStock: 5 },
        { sku: "BC-RED", colour: "red", totalStock: 5 },
      ],
      { category: "accessories" },
    );
    const single = await createProduct({ title: "C Single", totalStock: 5 });
    await createVariantProduct("D Sold Out Tee", [
      { sku: "DS-S", size: "S", totalStock: 0 },
      { sku: "DS-M", size: "M", totalStock: 0 },
    ]);
    const document = await renderShopPage("/shop/listing?sortBy=title-atoz", listingPage, shopper.cookie);
    const actionOf = (title: string) => {
      const card = [...document.querySelectorAll(".product-card")].find((element) =>
        element.querySelector(".product-card__title")?.textContent?.includes(title),
      )!;
      return card.querySelector(".product-card__action")!;
    };
    const choose = actionOf("A Sized Tee").querySelector("a")!;
    expect(choose.getAttribute("href")).toBe(`/shop/product/${sized.id}`);
    expect(choose.textContent).toBe("Choose sizeChoose size: A Sized Tee");
    expect(choose.getAttribute("data-dialog-href")).toBe(
      `/shop/listing?sortBy=title-atoz&product=${sized.id}`,
    );
    expect(actionOf("B Coloured Cap").querySelector("a .visually-hidden")?.textContent).toBe(
      "Choose colour: B Coloured Cap",
    );
    expect(actionOf("B Coloured Cap").querySelector("a")?.getAttribute("href")).toBe(
      `/shop/product/${coloured.id}`,
    );
    const singleForm = actionOf("C Single");
    expect(singleForm.tagName).toBe("FORM");
    expect(singleForm.querySelector<HTMLInputElement>('input[name="productId"]')?.value).toBe(single.id);
    expect(actionOf("D Sold Out Tee").querySelector("button")?.textContent).toBe("Out Of Stock");
    expect(actionOf("D Sold Out Tee").querySelector("a")).toBeNull();
  });
});

describe("the cart by size", () => {
  it("keeps M and L of one product as two lines, each naming its size and posting its variant", async () => {
    const tee = await createVariantProduct("Two Line Tee", [
      { sku: "TL-M", size: "M", totalStock: 5 },
      { sku: "TL-L", size: "L", totalStock: 5 },
    ]);
    const [medium, large] = tee.variants;
    for (const variant of [medium!, large!]) {
      const response = await postCart({
        intent: "add",
        productId: tee.id,
        variantId: variant.id,
        redirectTo: "/shop/listing",
      });
      expect(response.status).toBe(302);
    }
    const document = await renderShopPage("/shop/cart", cartPage, shopper.cookie);
    const lines = [...document.querySelectorAll('[data-testid="cart-line"]')];
    expect(lines.map((line) => line.querySelector('[data-testid="cart-line-variant"]')?.textContent)).toEqual(
      ["M", "L"],
    );
    expect(lines.map((line) => line.getAttribute("data-variant-id"))).toEqual([medium!.id, large!.id]);
    for (const [index, line] of lines.entries()) {
      const variantIds = [...line.querySelectorAll<HTMLInputElement>('input[name="variantId"]')].map(
        (input) => input.value,
      );
      expect(variantIds).toEqual([tee.variants[index]!.id, tee.variants[index]!.id, tee.variants[index]!.id]);
    }
    // "+" of the L line changes only L.
    await postCart({ intent: "increase", productId: tee.id, variantId: large!.id, redirectTo: "/shop/cart" });
    const cart = await getCartView(shopper.id);
    expect(cart.items.map((item) => [item.size, item.quantity])).toEqual([
      ["M", 1],
      ["L", 2],
    ]);
  });

  it("shows the cart's notices once, then forgets them; without notices the layout stays one statement", async () => {
    const tee = await createVariantProduct("Noticed Tee", [
      { sku: "NT-M", size: "M", totalStock: 5 },
      { sku: "NT-L", size: "L", totalStock: 5 },
    ]);
    await addToCart(shopper.id, tee.id, 1, tee.variants[0]!.id);
    const statements = async () =>
      (await loadPage([rootLoader, shopLayoutLoader], "/shop/cart", shopper.cookie)).queries.length;
    expect(await statements()).toBe(1);

    const cart = await getCartView(shopper.id);
    const message = '"Noticed Tee" in L is no longer sold and was taken out of your cart';
    await getDb().sequelize.query(`INSERT INTO cart_notices (cart_id, message) VALUES ($1, $2)`, {
      bind: [cart._id, message],
      type: QueryTypes.INSERT,
    });
    const first = await renderShopPage("/shop/cart", cartPage, shopper.cookie);
    expect(first.querySelector('[data-testid="cart-notices"]')?.textContent).toBe(message);
    const second = await renderShopPage("/shop/cart", cartPage, shopper.cookie);
    expect(second.querySelector('[data-testid="cart-notices"]')).toBeNull();
    expect((await getCartView(shopper.id)).notices).toEqual([]);
  });
});

describe("the listing's size, colour, stock and price filters", () => {
  async function catalogue() {
    await createVariantProduct("Filter Tee", [
      { sku: "FT-M-BLK", size: "M", colour: "black", totalStock: 5 },
      { sku: "FT-L-BLK", size: "L", colour: "black", totalStock: 0 },
      { sku: "FT-M-RED", size: "M", colour: "red", totalStock: 2 },
    ]);
    await createVariantProduct("Filter Shirt", [
      { sku: "FS-L-BLK", size: "L", colour: "black", totalStock: 3, price: "45.00" },
      { sku: "FS-XL-BLK", size: "XL", colour: "black", totalStock: 3, price: "45.00" },
    ]);
    await createVariantProduct(
      "Filter Shoe",
      [
        { sku: "FSH-42", size: "EU 42", colour: "white", totalStock: 4 },
        { sku: "FSH-43", size: "EU 43", colour: "white", totalStock: 4 },
      ],
      { category: "footwear", price: "80.00" },
    );
    await createProduct({ title: "Filter Sold Out", totalStock: 0, price: "10.00" });
  }

  const countsOf = (document: Document, legend: string) => {
    const fieldset = [...document.querySelectorAll(".listing__filters fieldset")].find(
      (element) => element.querySelector("legend")?.textContent === legend,
    );
    if (!fieldset) return null;
    return Object.fromEntries(
      [...fieldset.querySelectorAll<HTMLInputElement>('input[type="checkbox"]')].map((input) => [
        input.value,
        input.closest("label")?.querySelector(".filter-form__count")?.textContent,
      ]),
    );
  };

  it("shows each size and colour with the number of products in stock beside it, all scales when no category", async () => {
    await catalogue();
    const document = await renderShopPage("/shop/listing", listingPage, shopper.cookie);
    // L counts the shirt only: the tee's L is sold out. Sizes nobody has are left out.
    expect(countsOf(document, "Size")).toEqual({
      M: "1 product",
      L: "1 product",
      XL: "1 product",
      "EU 42": "1 product",
      "EU 43": "1 product",
    });
    expect(countsOf(document, "Colour")).toEqual({
      black: "2 products",
      white: "1 product",
      red: "1 product",
    });
    const groups = [...document.querySelectorAll(".listing__filters .filter-form__subgroup")].map((group) =>
      group.getAttribute("aria-label"),
    );
    expect(groups).toEqual(["Men, Women sizes", "Footwear sizes"]);
  });

  it("shows only the chosen categories' sizes, and filters by size, colour, stock and price", async () => {
    await catalogue();
    const men = await renderShopPage("/shop/listing?category=men", listingPage, shopper.cookie);
    expect(Object.keys(countsOf(men, "Size") ?? {})).toEqual(["M", "L", "XL"]);

    const titles = async (query: string) =>
      [
        ...(await renderShopPage(`/shop/listing?${query}`, listingPage, shopper.cookie)).querySelectorAll(
          ".product-card__title",
        ),
      ].map((title) => title.textContent);
    expect(await titles("size=L&sortBy=title-atoz")).toEqual(["Filter Shirt"]);
    expect(await titles("colour=red")).toEqual(["Filter Tee"]);
    expect(await titles("inStock=true&sortBy=title-atoz")).toEqual([
      "Filter Shirt",
      "Filter Shoe",
      "Filter Tee",
    ]);
    expect(await titles("minPrice=40&maxPrice=50")).toEqual(["Filter Shirt"]);
  });

  it("shows the chosen filters as chips that remove them, and fills in the price inputs", async () => {
    await catalogue();
    const document = await renderShopPage(
      "/shop/listing?size=M&colour=black&inStock=true&minPrice=10&maxPrice=49.9",
      listingPage,
      shopper.cookie,
    );
    const chips = [...document.querySelectorAll(".active-filters a")].map((chip) => [
      chip.getAttribute("aria-label"),
      chip.getAttribute("href"),
    ]);
    expect(chips).toEqual([
      ["Remove filter Size M", "/shop/listing?colour=black&inStock=true&minPrice=10&maxPrice=49.90"],
      ["Remove filter Black", "/shop/listing?size=M&inStock=true&minPrice=10&maxPrice=49.90"],
      ["Remove filter In stock only", "/shop/listing?size=M&colour=black&minPrice=10&maxPrice=49.90"],
      ["Remove filter From $10.00", "/shop/listing?size=M&colour=black&inStock=true&maxPrice=49.90"],
      ["Remove filter Up to $49.90", "/shop/listing?size=M&colour=black&inStock=true&minPrice=10"],
    ]);
    expect(document.querySelector<HTMLInputElement>(".listing__filters input[name=minPrice]")?.value).toBe(
      "10",
    );
    expect(document.querySelector<HTMLInputElement>(".listing__filters input[name=maxPrice]")?.value).toBe(
      "49.90",
    );
    expect(document.querySelector<HTMLInputElement>(".listing__filters input[name=inStock]")?.checked).toBe(
      true,
    );
  });

  it("redirects what a plain GET form sends (repeated sizes, empty prices) to the canonical URL", async () => {
    const redirectOf = async (query: string) => {
      const response = await callRoute(listingPage.loader, `/shop/listing?${query}`, {
        cookie: shopper.cookie,
      });
      return response.status === 302 ? response.headers.get("Location") : null;
    };
    expect(await redirectOf("size=M&size=L&colour=red&colour=black")).toBe(
      "/shop/listing?size=M,L&colour=black,red",
    );
    expect(await redirectOf("size=L&inStock=true&minPrice=&maxPrice=30")).toBe(
      "/shop/listing?size=L&inStock=true&maxPrice=30",
    );
    expect(await redirectOf("size=M,L&minPrice=20")).toBeNull();
  });
});

describe("the order details", () => {
  it("show each line's size, colour and SKU to the shopper", async () => {
    const { Order, OrderItem } = getDb().models;
    const order = await Order.create({
      userId: shopper.id,
      cartId: null,
      addressInfo: {
        addressId: null,
        address: "1 Test Street",
        city: "Testville",
        pincode: "12345",
        phone: "555-0100",
        notes: "none",
      },
      orderStatus: "confirmed",
      paymentStatus: "paid",
      totalAmount: "20.00",
      paymentId: null,
      payerId: null,
    });
    await OrderItem.create({
      orderId: order.id,
      productId: null,
      variantId: null,
      sku: "TEE-M-BLK",
      size: "M",
      colour: "black",
      title: "Ordered Tee",
      image: "/images/products/test.svg",
      price: "20.00",
      quantity: 1,
    } as never);
    const document = await renderShopPage(
      `/shop/account/orders/${order.id}`,
      accountOrderPage,
      shopper.cookie,
      "account/orders/:orderId",
    );
    const line = document.querySelector(".order-details__items li")!;
    expect([...line.querySelectorAll("span")].map((span) => span.textContent)).toEqual([
      "Title: Ordered Tee",
      "Size: M",
      "Colour: Black",
      "SKU: TEE-M-BLK",
      "Quantity: 1",
      "Price: $20.00",
    ]);
  });
});
