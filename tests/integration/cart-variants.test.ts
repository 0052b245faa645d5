import { beforeEach, describe, expect, it } from "vitest";
import { action as addApi } from "../../app/routes/api.shop.cart.add";
import { action as deleteApi } from "../../app/routes/api.shop.cart.$userId.$productId";
import { action as updateApi } from "../../app/routes/api.shop.cart.update-cart";
import {
  addToCart,
  changeCartItemQuantity,
  removeCartItem,
  updateCartItem,
} from "../../app/services/cart-lines.server";
import { getCart, getCartView } from "../../app/services/cart.server";
import { getDb } from "../../app/models/db.server";
import { resetDatabase } from "../support/database";
import { callRoute } from "../support/requests";
import { createProduct, createProductWithVariants } from "../support/storefront";
import { clothesOf, refusal, signedIn, UNKNOWN_ID, type Caller } from "./cart-support";

/** API.md "Sizes and colours": a cart line is a variant; the spec's clients keep working on one-size products. */

let ann: Caller;

beforeEach(async () => {
  await resetDatabase();
  ann = await signedIn();
});

const tee = () =>
  createProductWithVariants({ title: "Tee", price: "20.00" }, [
    { size: "S", totalStock: 4 },
    { size: "M", totalStock: 2 },
    { size: "L", totalStock: 0 },
    { size: "XL", totalStock: 5, price: "24.00", salePrice: "22.00" },
  ]);

async function answer(response: Response) {
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe("adding a size to the cart", () => {
  it("asks for a size (400, on variantId) when a product has several and none is named", async () => {
    const { product } = await tee();
    const refused = await addToCart(ann.id, product.id, 1).then(
      () => null,
      (error: { status: number; message: string; fieldErrors?: Record<string, string[]> }) => error,
    );
    expect(refused).toMatchObject({
      status: 400,
      message: "Please choose a size",
      fieldErrors: { variantId: ["Please choose a size"] },
    });
    expect(clothesOf(await getCart(ann.id))).toEqual([]);
  });

  it("asks for a colour when the variants differ only by colour", async () => {
    const { product } = await createProductWithVariants({ category: "accessories" }, [
      { colour: "black", totalStock: 3 },
      { colour: "red", totalStock: 3 },
    ]);
    expect(await refusal(addToCart(ann.id, product.id, 1))).toEqual({
      status: 400,
      message: "Please choose a colour",
    });
  });

  it("answers 404 for a variant of another product, an unknown or a malformed variant id", async () => {
    const { product } = await tee();
    const other = await createProduct();
    const [otherVariant] = await getDb().models.ProductVariant.findAll({ where: { productId: other.id } });
    for (const variantId of [otherVariant!.id, UNKNOWN_ID, "not-an-id"]) {
      expect(await refusal(addToCart(ann.id, product.id, 1, variantId)), variantId).toEqual({
        status: 404,
        message: "This size is not sold for this product",
      });
    }
  });

  it("keeps M and L of one product as two lines, each with its size, SKU and own prices", async () => {
    const { product, byOptions } = await tee();
    await addToCart(ann.id, product.id, 1, byOptions.M!.id);
    await addToCart(ann.id, product.id, 2, byOptions.XL!.id);
    await addToCart(ann.id, product.id, 1, byOptions.M!.id);
    expect(clothesOf(await getCart(ann.id))).toEqual([
      expect.objectContaining({
        productId: product.id,
        variantId: byOptions.M!.id,
        sku: byOptions.M!.sku,
        size: "M",
        colour: null,
        price: 20,
        salePrice: 0,
        quantity: 2,
      }),
      expect.objectContaining({
        variantId: byOptions.XL!.id,
        size: "XL",
        price: 24,
        salePrice: 22,
        quantity: 2,
      }),
    ]);
  });

  it("counts the stock of the variant: M's limit says what is in the cart, and L sold out refuses at once", async () => {
    const { product, byOptions } = await tee();
    await addToCart(ann.id, product.id, 2, byOptions.M!.id);
    expect(await refusal(addToCart(ann.id, product.id, 1, byOptions.M!.id))).toEqual({
      status: 409,
      message: "Only 2 quantity can be added for this item",
    });
    expect(await refusal(addToCart(ann.id, product.id, 1, byOptions.L!.id))).toEqual({
      status: 409,
      message: "Only 0 quantity can be added for this item",
    });
    // S has its own stock, untouched by M's.
    await addToCart(ann.id, product.id, 4, byOptions.S!.id);
    expect(
      (await getCartView(ann.id)).items.map((item) => [item.size, item.quantity, item.totalStock]),
    ).toEqual([
      ["M", 2, 2],
      ["S", 4, 4],
    ]);
  });

  it("needs no variantId for a product with one variant (the spec's clients)", async () => {
    const cap = await createProduct({ totalStock: 3 });
    await addToCart(ann.id, cap.id, 2);
    await updateCartItem(ann.id, cap.id, 3);
    await changeCartItemQuantity(ann.id, cap.id, -1);
    expect(clothesOf(await getCart(ann.id))).toMatchObject([{ productId: cap.id, size: null, quantity: 2 }]);
    await removeCartItem(ann.id, cap.id);
    expect(clothesOf(await getCart(ann.id))).toEqual([]);
  });
});

describe("adding by size and colour (the page's two groups, without a variantId)", () => {
  const training = () =>
    createProductWithVariants({ title: "Training Tee", price: "20.00" }, [
      { size: "S", colour: "black", totalStock: 3 },
      { size: "M", colour: "black", totalStock: 4 },
      { size: "M", colour: "white", totalStock: 0 },
      { size: "L", colour: "white", totalStock: 2, price: "22.00" },
    ]);

  it("finds the variant of the posted size and colour and adds it", async () => {
    const { product, byOptions } = await training();
    const line = await addToCart(ann.id, product.id, 2, undefined, { size: "M", colour: "black" });
    expect(line).toMatchObject({ variantId: byOptions["M/black"]!.id, quantity: 2 });
    await addToCart(ann.id, product.id, 1, "", { size: "L", colour: "white" });
    expect(clothesOf(await getCart(ann.id)).map((item) => [item.size, item.colour, item.quantity])).toEqual([
      ["M", "black", 2],
      ["L", "white", 1],
    ]);
  });

  it("asks for the colour first (400, on colour), then for the size (400, on size)", async () => {
    const { product } = await training();
    const refusedOf = (options: { size: unknown; colour: unknown }) =>
      addToCart(ann.id, product.id, 1, null, options).then(
        () => null,
        (error: { status: number; message: string; fieldErrors?: Record<string, string[]> }) => ({
          status: error.status,
          message: error.message,
          fieldErrors: error.fieldErrors,
        }),
      );
    const chooseColour = {
      status: 400,
      message: "Please choose a colour",
      fieldErrors: { colour: ["Please choose a colour"] },
    };
    const chooseSize = {
      status: 400,
      message: "Please choose a size",
      fieldErrors: { size: ["Please choose a size"] },
    };
    expect(await refusedOf({ size: null, colour: null })).toEqual(chooseColour);
    expect(await refusedOf({ size: "M", colour: "  " })).toEqual(chooseColour);
    expect(await refusedOf({ size: null, colour: "black" })).toEqual(chooseSize);
    expect(await refusedOf({ size: "", colour: "black" })).toEqual(chooseSize);
    expect(clothesOf(await getCart(ann.id))).toEqual([]);
  });

  it("answers 404 for a size and colour that are not made together, or not at all", async () => {
    const { product } = await training();
    for (const options of [
      { size: "S", colour: "white" },
      { size: "XXL", colour: "black" },
      { size: "M", colour: "purple" },
    ]) {
      expect(
        await refusal(addToCart(ann.id, product.id, 1, undefined, options)),
        JSON.stringify(options),
      ).toEqual({
        status: 404,
        message: "This size is not sold for this product",
      });
    }
  });

  it("refuses a sold-out size and colour with the stock message (409)", async () => {
    const { product } = await training();
    expect(
      await refusal(addToCart(ann.id, product.id, 1, undefined, { size: "M", colour: "white" })),
    ).toEqual({
      status: 409,
      message: "Only 0 quantity can be added for this item",
    });
  });

  it("lets a variantId win over the options, and resolves a size-only product by its size", async () => {
    const { product, byOptions } = await training();
    const line = await addToCart(ann.id, product.id, 1, byOptions["S/black"]!.id, {
      size: "L",
      colour: "white",
    });
    expect(line.variantId).toBe(byOptions["S/black"]!.id);
    const sized = await tee();
    expect(
      await addToCart(ann.id, sized.product.id, 1, undefined, { size: "XL", colour: null }),
    ).toMatchObject({
      variantId: sized.byOptions.XL!.id,
    });
    expect(
      await refusal(addToCart(ann.id, sized.product.id, 1, undefined, { size: null, colour: null })),
    ).toEqual({ status: 400, message: "Please choose a size" });
  });
});

describe("changing and removing a size's line", () => {
  it("sets and changes the quantity of the named line only, up to that variant's stock", async () => {
    const { product, byOptions } = await tee();
    await addToCart(ann.id, product.id, 1, byOptions.M!.id);
    await addToCart(ann.id, product.id, 1, byOptions.S!.id);
    await updateCartItem(ann.id, product.id, 3, byOptions.S!.id);
    await changeCartItemQuantity(ann.id, product.id, 1, byOptions.S!.id);
    expect(await refusal(changeCartItemQuantity(ann.id, product.id, 1, byOptions.S!.id))).toEqual({
      status: 409,
      message: "Only 4 quantity can be added for this item",
    });
    expect(await refusal(updateCartItem(ann.id, product.id, 3, byOptions.M!.id))).toEqual({
      status: 409,
      message: "Only 1 quantity can be added for this item",
    });
    expect(clothesOf(await getCart(ann.id)).map((item) => [item.size, item.quantity])).toEqual([
      ["M", 1],
      ["S", 4],
    ]);
    expect(await refusal(updateCartItem(ann.id, product.id, 1))).toEqual({
      status: 400,
      message: "Please choose a size",
    });
    expect(await refusal(updateCartItem(ann.id, product.id, 1, byOptions.XL!.id))).toEqual({
      status: 404,
      message: "This product is not in your cart",
    });
  });

  it("removes one line with its variantId, or every line of the product without", async () => {
    const { product, byOptions } = await tee();
    const cap = await createProduct();
    await addToCart(ann.id, product.id, 1, byOptions.M!.id);
    await addToCart(ann.id, product.id, 1, byOptions.S!.id);
    await addToCart(ann.id, product.id, 1, byOptions.XL!.id);
    await addToCart(ann.id, cap.id, 1);
    await removeCartItem(ann.id, product.id, byOptions.M!.id);
    expect(clothesOf(await getCart(ann.id)).map((item) => item.size ?? item.productId)).toEqual([
      "S",
      "XL",
      cap.id,
    ]);
    expect(await refusal(removeCartItem(ann.id, product.id, byOptions.M!.id))).toEqual({
      status: 404,
      message: "This product is not in your cart",
    });
    await removeCartItem(ann.id, product.id);
    expect(clothesOf(await getCart(ann.id)).map((item) => item.productId)).toEqual([cap.id]);
  });

  it("never passes a variant's stock when parallel increases race, leaving the other size alone", async () => {
    const { product, byOptions } = await tee();
    await addToCart(ann.id, product.id, 1, byOptions.S!.id);
    await addToCart(ann.id, product.id, 1, byOptions.XL!.id);
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, () => changeCartItemQuantity(ann.id, product.id, 1, byOptions.S!.id)),
    );
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(3);
    expect(clothesOf(await getCart(ann.id)).map((item) => [item.size, item.quantity])).toEqual([
      ["S", 4],
      ["XL", 1],
    ]);
  });
});

describe("the JSON cart calls with variantId", () => {
  it("add: 400 without a size, 200 with one; the cart's lines carry variantId, sku, size and colour", async () => {
    const { product, byOptions } = await tee();
    const body = { userId: ann.id, productId: product.id, quantity: 1 };
    const post = (json: unknown) =>
      callRoute(addApi, "/api/shop/cart/add", { method: "POST", json, cookie: ann.cookie }).then(answer);
    expect(await post(body)).toMatchObject({
      status: 400,
      body: {
        success: false,
        message: "Please choose a size",
        errors: { variantId: ["Please choose a size"] },
      },
    });
    const added = await post({ ...body, variantId: byOptions.M!.id });
    expect(added.status).toBe(200);
    expect(added.body.data).toMatchObject({
      items: [
        { productId: product.id, variantId: byOptions.M!.id, sku: byOptions.M!.sku, size: "M", colour: null },
      ],
    });
  });

  it("update-cart sets the named line; DELETE with ?variantId= removes only that line", async () => {
    const { product, byOptions } = await tee();
    await addToCart(ann.id, product.id, 1, byOptions.M!.id);
    await addToCart(ann.id, product.id, 1, byOptions.S!.id);
    const put = await callRoute(updateApi, "/api/shop/cart/update-cart", {
      method: "PUT",
      json: { productId: product.id, variantId: byOptions.S!.id, quantity: 3 },
      cookie: ann.cookie,
    }).then(answer);
    expect(put.status).toBe(200);
    const path = `/api/shop/cart/${ann.id}/${product.id}`;
    const params = { userId: ann.id, productId: product.id };
    const removed = await callRoute(deleteApi, `${path}?variantId=${byOptions.M!.id}`, {
      method: "DELETE",
      cookie: ann.cookie,
      params,
    }).then(answer);
    expect(removed.status).toBe(200);
    expect((removed.body.data as { items: { size: string; quantity: number }[] }).items).toMatchObject([
      { size: "S", quantity: 3 },
    ]);
    const again = await callRoute(deleteApi, `${path}?variantId=${byOptions.M!.id}`, {
      method: "DELETE",
      cookie: ann.cookie,
      params,
    }).then(answer);
    expect(again.status).toBe(404);
  });
});
