import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "../../app/models/db.server";
import {
  addToCart,
  changeCartItemQuantity,
  removeCartItem,
  updateCartItem,
} from "../../app/services/cart-lines.server";
import { cartTotalCents, getCart, getCartView, lineTotalCents } from "../../app/services/cart.server";
import { resetDatabase } from "../support/database";
import { createProduct, recordQueries } from "../support/storefront";
import { clothesOf, quantityInCart, refusal, signedIn, UNKNOWN_ID, type Caller } from "./cart-support";

/** SPEC §5, §8, §9 and API.md Cart: the rules in app/services/cart.server.ts. */

let ann: Caller;
let bob: Caller;

beforeEach(async () => {
  await resetDatabase();
  ann = await signedIn();
  bob = await signedIn();
});

/** The one variant every product created without sizes has: its id and SKU. */
async function onlyVariant(productId: string): Promise<{ variantId: string; sku: string }> {
  const variant = await getDb().models.ProductVariant.findOne({ where: { productId }, raw: true });
  return { variantId: variant!.id, sku: variant!.sku };
}

const noOptions = { size: null, colour: null };

describe("getCart", () => {
  it("answers an empty cart with _id null for a shopper who never added anything", async () => {
    expect(await getCart(ann.id)).toEqual({ _id: null, userId: ann.id, items: [] });
  });

  it("returns exactly { _id, userId, items: [{ productId, variantId, sku, size, colour, title, image, price, salePrice, quantity }] } in the order added", async () => {
    const tee = await createProduct({ title: "Tee", image: "/images/tee.svg", price: "20.00" });
    const cap = await createProduct({
      title: "Cap",
      image: "/images/cap.svg",
      price: "15.50",
      salePrice: "9.99",
    });
    await addToCart(ann.id, tee.id, 2);
    await addToCart(ann.id, cap.id, 1);
    const cart = await getCart(ann.id);
    const { Cart } = getDb().models;
    const row = await Cart.findOne({ where: { userId: ann.id }, attributes: ["id"], raw: true });
    expect(cart).toStrictEqual({
      _id: row!.id,
      userId: ann.id,
      items: [
        {
          productId: tee.id,
          ...(await onlyVariant(tee.id)),
          ...noOptions,
          title: "Tee",
          image: "/images/tee.svg",
          price: 20,
          salePrice: 0,
          quantity: 2,
        },
        {
          productId: cap.id,
          ...(await onlyVariant(cap.id)),
          ...noOptions,
          title: "Cap",
          image: "/images/cap.svg",
          price: 15.5,
          salePrice: 9.99,
          quantity: 1,
        },
      ],
    });
  });

  it("always shows the catalogue's current title, image and prices, never what they were at the add", async () => {
    const tee = await createProduct({ title: "Tee", price: "20.00" });
    await addToCart(ann.id, tee.id, 1);
    await getDb().models.Product.update(
      { title: "Tee (new season)", price: "25.00", salePrice: "19.90", image: "/images/tee-2.svg" },
      { where: { id: tee.id } },
    );
    expect(clothesOf(await getCart(ann.id))).toEqual([
      {
        productId: tee.id,
        ...(await onlyVariant(tee.id)),
        ...noOptions,
        title: "Tee (new season)",
        image: "/images/tee-2.svg",
        price: 25,
        salePrice: 19.9,
        quantity: 1,
      },
    ]);
  });

  it("keeps the cart id once the last item is removed", async () => {
    const tee = await createProduct();
    const { cartId } = await addToCart(ann.id, tee.id, 1);
    await removeCartItem(ann.id, tee.id);
    expect(await getCart(ann.id)).toEqual({ _id: cartId, userId: ann.id, items: [] });
  });

  it("shows each shopper only their own cart", async () => {
    const tee = await createProduct();
    const cap = await createProduct();
    await addToCart(ann.id, tee.id, 1);
    await addToCart(bob.id, cap.id, 3);
    expect(clothesOf(await getCart(ann.id)).map((item) => item.productId)).toEqual([tee.id]);
    expect(clothesOf(await getCart(bob.id)).map((item) => [item.productId, item.quantity])).toEqual([
      [cap.id, 3],
    ]);
  });

  it("reads the whole cart with one query, however many items it holds", async () => {
    for (let i = 0; i < 6; i++) await addToCart(ann.id, (await createProduct()).id, 1);
    const { result, queries } = await recordQueries(() => getCart(ann.id));
    expect(result.items).toHaveLength(6);
    expect(queries).toHaveLength(1);
    const view = await recordQueries(() => getCartView(ann.id));
    expect(view.queries).toHaveLength(1);
  });

  it("adds each product's current stock to the page's view of the cart", async () => {
    const tee = await createProduct({ totalStock: 7 });
    await addToCart(ann.id, tee.id, 2);
    expect((await getCartView(ann.id)).items[0]).toMatchObject({
      productId: tee.id,
      quantity: 2,
      totalStock: 7,
    });
  });
});

describe("a product deleted by an admin", () => {
  it("disappears from every cart without breaking it", async () => {
    const tee = await createProduct({ title: "Tee" });
    const cap = await createProduct({ title: "Cap" });
    await addToCart(ann.id, tee.id, 1);
    await addToCart(ann.id, cap.id, 2);
    await addToCart(bob.id, tee.id, 1);
    await getDb().models.Product.destroy({ where: { id: tee.id } });

    expect(clothesOf(await getCart(ann.id)).map((item) => item.title)).toEqual(["Cap"]);
    expect(clothesOf(await getCart(bob.id))).toEqual([]);
    expect((await getCartView(ann.id)).items.length).toBe(1);
    // The cart keeps working: the gone product answers 404, the others change as usual.
    expect((await refusal(changeCartItemQuantity(ann.id, tee.id, 1))).status).toBe(404);
    expect((await refusal(removeCartItem(ann.id, tee.id))).status).toBe(404);
    expect((await refusal(addToCart(ann.id, tee.id, 1))).status).toBe(404);
    expect((await updateCartItem(ann.id, cap.id, 3)).quantity).toBe(3);
  });
});

describe("totals in cents", () => {
  it("multiplies the price paid (the sale price when above 0) by the quantity, exactly", async () => {
    expect(lineTotalCents({ price: 19.99, salePrice: 0, quantity: 3 })).toBe(5997);
    expect(lineTotalCents({ price: 20, salePrice: 14.99, quantity: 2 })).toBe(2998);
    expect(lineTotalCents({ price: 0.1, salePrice: 0, quantity: 3 })).toBe(30);
    expect(
      cartTotalCents([
        { price: 0.1, salePrice: 0, quantity: 1 },
        { price: 0.2, salePrice: 0, quantity: 1 },
        { price: 99.99, salePrice: 49.95, quantity: 7 },
      ]),
    ).toBe(30 + 34965);
    expect(cartTotalCents([])).toBe(0);
  });

  it("adds up a cart read from the database to the cent", async () => {
    const a = await createProduct({ price: "19.99" });
    const b = await createProduct({ price: "30.00", salePrice: "0.01" });
    await addToCart(ann.id, a.id, 3);
    await addToCart(ann.id, b.id, 5);
    expect(cartTotalCents(clothesOf(await getCart(ann.id)))).toBe(5997 + 5);
  });
});

describe("updateCartItem (set the quantity)", () => {
  it("sets the quantity of a product in the cart, up to the stock", async () => {
    const tee = await createProduct({ totalStock: 5 });
    await addToCart(ann.id, tee.id, 1);
    expect(await updateCartItem(ann.id, tee.id, 5)).toMatchObject({ productId: tee.id, quantity: 5 });
    expect(await updateCartItem(ann.id, tee.id, 2)).toMatchObject({ quantity: 2 });
    expect(await quantityInCart(ann.id, tee.id)).toBe(2);
  });

  it('refuses more than the stock with 409 "Only {n} quantity can be added for this item", n the quantity in the cart', async () => {
    const tee = await createProduct({ totalStock: 4 });
    await addToCart(ann.id, tee.id, 3);
    expect(await refusal(updateCartItem(ann.id, tee.id, 5))).toEqual({
      status: 409,
      message: "Only 3 quantity can be added for this item",
    });
    expect(await quantityInCart(ann.id, tee.id)).toBe(3);
  });

  it("allows a reduction even while the stock has fallen below the cart's quantity", async () => {
    const tee = await createProduct({ totalStock: 6 });
    await addToCart(ann.id, tee.id, 6);
    await getDb().models.Product.update({ totalStock: 2 }, { where: { id: tee.id } });
    expect((await updateCartItem(ann.id, tee.id, 4)).quantity).toBe(4);
    expect((await refusal(updateCartItem(ann.id, tee.id, 5))).status).toBe(409);
    expect((await changeCartItemQuantity(ann.id, tee.id, -1)).quantity).toBe(3);
  });

  it("answers 400 for a quantity that is not a whole number from 1 to 1000", async () => {
    const tee = await createProduct();
    await addToCart(ann.id, tee.id, 2);
    for (const quantity of [0, -1, 1.5, Number.NaN, "3", null, undefined, {}, 1001]) {
      const answer = await refusal(updateCartItem(ann.id, tee.id, quantity));
      expect(answer.status, String(quantity)).toBe(400);
    }
    expect(await quantityInCart(ann.id, tee.id)).toBe(2);
  });

  it("answers 404 for a product that is not in the cart, is unknown, is malformed, or is only in another's cart", async () => {
    const tee = await createProduct();
    const cap = await createProduct();
    await addToCart(bob.id, tee.id, 1);
    expect((await refusal(updateCartItem(ann.id, tee.id, 1))).status).toBe(404);
    await addToCart(ann.id, cap.id, 1);
    for (const productId of [tee.id, UNKNOWN_ID, "nope", "", 42, undefined]) {
      expect(await refusal(updateCartItem(ann.id, productId, 1)), String(productId)).toEqual({
        status: 404,
        message: "This product is not in your cart",
      });
    }
    expect(await quantityInCart(bob.id, tee.id)).toBe(1);
  });
});

describe("changeCartItemQuantity (the panel's + and −)", () => {
  it("increases one at a time up to the stock, then refuses with the stock message", async () => {
    const tee = await createProduct({ totalStock: 3 });
    await addToCart(ann.id, tee.id, 1);
    expect((await changeCartItemQuantity(ann.id, tee.id, 1)).quantity).toBe(2);
    expect((await changeCartItemQuantity(ann.id, tee.id, 1)).quantity).toBe(3);
    expect(await refusal(changeCartItemQuantity(ann.id, tee.id, 1))).toEqual({
      status: 409,
      message: "Only 3 quantity can be added for this item",
    });
    expect(await quantityInCart(ann.id, tee.id)).toBe(3);
  });

  it("decreases down to 1 and refuses to go below (remove is the way out)", async () => {
    const tee = await createProduct();
    await addToCart(ann.id, tee.id, 2);
    expect((await changeCartItemQuantity(ann.id, tee.id, -1)).quantity).toBe(1);
    expect(await refusal(changeCartItemQuantity(ann.id, tee.id, -1))).toEqual({
      status: 400,
      message: "The quantity cannot go below 1: remove the item instead",
    });
    expect(await quantityInCart(ann.id, tee.id)).toBe(1);
  });

  it("answers 404 for a product that is not in the cart", async () => {
    const tee = await createProduct();
    expect((await refusal(changeCartItemQuantity(ann.id, tee.id, 1))).status).toBe(404);
    expect((await refusal(changeCartItemQuantity(ann.id, "x", -1))).status).toBe(404);
  });

  it("locks the cart, then share-locks the variant, in one transaction of six statements", async () => {
    const tee = await createProduct();
    await addToCart(ann.id, tee.id, 1);
    const { queries } = await recordQueries(() => changeCartItemQuantity(ann.id, tee.id, 1));
    // BEGIN, lock the cart row, find the variant, read the line with its stock FOR SHARE, update, COMMIT.
    expect(queries).toHaveLength(6);
    expect(queries[1]).toMatch(/FROM carts .* FOR UPDATE/s);
    expect(queries[2]).toMatch(/FROM product_variants WHERE product_id/);
    expect(queries[3]).toMatch(/FOR SHARE OF v/);
  });
});

describe("removeCartItem", () => {
  it("takes the product out of the caller's cart only, and answers 404 the second time", async () => {
    const tee = await createProduct();
    const cap = await createProduct();
    await addToCart(ann.id, tee.id, 2);
    await addToCart(ann.id, cap.id, 1);
    await addToCart(bob.id, tee.id, 1);
    expect(await removeCartItem(ann.id, tee.id)).toEqual({ productId: tee.id });
    expect(clothesOf(await getCart(ann.id)).map((item) => item.productId)).toEqual([cap.id]);
    expect(await quantityInCart(bob.id, tee.id)).toBe(1);
    expect(await refusal(removeCartItem(ann.id, tee.id))).toEqual({
      status: 404,
      message: "This product is not in your cart",
    });
  });

  it("answers 404 for an unknown or malformed id, and for a shopper without a cart", async () => {
    const tee = await createProduct();
    await addToCart(ann.id, tee.id, 1);
    for (const productId of [UNKNOWN_ID, "not-an-id", undefined, null]) {
      expect((await refusal(removeCartItem(ann.id, productId))).status, String(productId)).toBe(404);
    }
    expect((await refusal(removeCartItem(bob.id, tee.id))).status).toBe(404);
  });
});

describe("concurrency", () => {
  it("never lets parallel increases pass the stock", async () => {
    const tee = await createProduct({ totalStock: 4 });
    await addToCart(ann.id, tee.id, 1);
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, () => changeCartItemQuantity(ann.id, tee.id, 1)),
    );
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(3);
    const refused = results.filter((result) => result.status === "rejected");
    expect(refused).toHaveLength(7);
    for (const result of refused) {
      expect((result as PromiseRejectedResult).reason).toMatchObject({
        status: 409,
        message: "Only 4 quantity can be added for this item",
      });
    }
    expect(await quantityInCart(ann.id, tee.id)).toBe(4);
  });

  it("never passes the stock when adds, increases and updates of one cart race each other", async () => {
    const tee = await createProduct({ totalStock: 5 });
    await addToCart(ann.id, tee.id, 1);
    const tasks = Array.from({ length: 24 }, (_, i) => {
      if (i % 3 === 0) return addToCart(ann.id, tee.id, 1);
      if (i % 3 === 1) return changeCartItemQuantity(ann.id, tee.id, 1);
      return updateCartItem(ann.id, tee.id, 5);
    });
    const results = await Promise.allSettled(tasks);
    for (const result of results) {
      if (result.status === "rejected") expect((result.reason as { status: number }).status).toBe(409);
    }
    expect(await quantityInCart(ann.id, tee.id)).toBe(5);
  });

  it("ends parallel increases and decreases exactly where their difference says", async () => {
    const tee = await createProduct({ totalStock: 100 });
    await addToCart(ann.id, tee.id, 10);
    await Promise.all([
      ...Array.from({ length: 8 }, () => changeCartItemQuantity(ann.id, tee.id, 1)),
      ...Array.from({ length: 5 }, () => changeCartItemQuantity(ann.id, tee.id, -1)),
    ]);
    expect(await quantityInCart(ann.id, tee.id)).toBe(13);
  });
});
