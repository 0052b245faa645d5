import { QueryTypes } from "sequelize";
import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "../../app/models/db.server";
import { action as adminProductsAction } from "../../app/routes/admin.products";
import { action as addApi } from "../../app/routes/api.admin.products.add";
import { action as editApi } from "../../app/routes/api.admin.products.edit.$id";
import { createProduct, updateProduct } from "../../app/services/product-writer.server";
import { getAdminProduct } from "../../app/services/admin-catalog.server";
import { getCartView } from "../../app/services/cart.server";
import { resetDatabase } from "../support/database";
import { createCallers, jsonRequest, multipartRequest, readApi, run, type Callers } from "./admin-support";

const base = {
  image: "/images/products/classic-tee.svg",
  title: "Classic Tee",
  description: "Soft cotton tee",
  category: "men",
  brand: "nike",
  price: 25,
  salePrice: 0,
};

type Variant = {
  _id?: string;
  sku?: string | null;
  size?: string | null;
  colour?: string | null;
  totalStock: number | string;
  price?: number | string | null;
  salePrice?: number | string | null;
};

const withVariants = (variants: unknown, extra: Record<string, unknown> = {}) => ({
  ...base,
  ...extra,
  variants,
});

async function productStock(id: string): Promise<number> {
  const [row] = await getDb().sequelize.query<{ stock: number }>(
    "SELECT total_stock AS stock FROM products WHERE id = :id",
    { replacements: { id }, type: QueryTypes.SELECT },
  );
  return row!.stock;
}

async function variantRows(productId: string) {
  return getDb().sequelize.query<{
    id: string;
    sku: string;
    size: string | null;
    colour: string | null;
    stock: number;
    position: number;
  }>(
    `SELECT id, sku, size, colour, total_stock AS stock, position FROM product_variants
      WHERE product_id = :productId ORDER BY position, id`,
    { replacements: { productId }, type: QueryTypes.SELECT },
  );
}

let callers: Callers;
beforeEach(async () => {
  await resetDatabase();
  callers = await createCallers();
});

describe("createProduct with variants", () => {
  it("stores each size with its stock, in the scale's order, the sizes spelt as the scale does", async () => {
    const product = await createProduct(
      withVariants([
        { size: "l", totalStock: 5, sku: "TEE-L" },
        { size: "S", totalStock: 2 },
        { size: " m ", colour: "BLACK", totalStock: 0 },
      ]),
    );
    expect(product.variants.map((v) => [v.size, v.colour, v.totalStock])).toEqual([
      ["S", null, 2],
      ["M", "black", 0],
      ["L", null, 5],
    ]);
    expect(product.totalStock).toBe(7);
    expect(await productStock(product._id)).toBe(7);
    expect((await variantRows(product._id)).map((v) => v.position)).toEqual([0, 1, 2]);
    expect(product.variants[2]!.sku).toBe("TEE-L");
    // An empty SKU is generated as the migration does: the brand's letters and the sequence.
    expect(product.variants[0]!.sku).toMatch(/^NIKE-\d{6}$/);
    expect(product.variants[1]!.sku).toMatch(/^NIKE-\d{6}$/);
    expect(product.variants[0]!.sku).not.toBe(product.variants[1]!.sku);
  });

  it("ignores a totalStock beside the variants: the product's stock is their sum", async () => {
    const product = await createProduct(withVariants([{ size: "M", totalStock: 3 }], { totalStock: 99 }));
    expect(product.totalStock).toBe(3);
  });

  it("without variants makes one variant (no size, no colour) holding totalStock", async () => {
    const product = await createProduct({ ...base, totalStock: 12 });
    expect(product.variants).toEqual([
      expect.objectContaining({ size: null, colour: null, totalStock: 12, price: 25, salePrice: 0 }),
    ]);
    expect(product.variants[0]!.sku).toMatch(/^NIKE-\d{6}$/);
  });

  it("keeps a variant's own price pair, and the product's price for the others", async () => {
    const product = await createProduct(
      withVariants([
        { size: "S", totalStock: 1 },
        { size: "XXL", totalStock: 1, price: "29.90", salePrice: "27.50" },
      ]),
    );
    expect(product.variants.map((v) => [v.size, v.price, v.salePrice])).toEqual([
      ["S", 25, 0],
      ["XXL", 29.9, 27.5],
    ]);
    // The product's price is its cheapest variant's.
    expect(product.price).toBe(25);
  });

  it.each<[string, unknown, string, string]>([
    [
      "a size of another category's scale",
      [{ size: "EU 42", totalStock: 1 }],
      "variants.0.size",
      "Choose a size of the Men scale: XS, S, M, L, XL, XXL",
    ],
    [
      "an unknown colour",
      [{ colour: "mauve", totalStock: 1 }],
      "variants.0.colour",
      "Choose a colour: Black, White, Grey, Navy, Blue, Green, Olive, Red, Pink, Yellow, Beige, Brown",
    ],
    [
      "a negative stock",
      [{ size: "S", totalStock: -1 }],
      "variants.0.totalStock",
      "Stock cannot be negative",
    ],
    [
      "a fractional stock",
      [{ size: "S", totalStock: 1.5 }],
      "variants.0.totalStock",
      "Stock must be a whole number",
    ],
    [
      "too much stock",
      [{ size: "S", totalStock: 1_000_001 }],
      "variants.0.totalStock",
      "Stock must be at most 1000000",
    ],
    ["no stock", [{ size: "S", totalStock: "" }], "variants.0.totalStock", "Stock is required"],
    [
      "a negative price",
      [{ size: "S", totalStock: 1, price: -3 }],
      "variants.0.price",
      "Price cannot be negative",
    ],
    [
      "a price too high",
      [{ size: "S", totalStock: 1, price: 1_000_001 }],
      "variants.0.price",
      "Price must be at most 1000000",
    ],
    [
      "a sale price without a price",
      [{ size: "S", totalStock: 1, salePrice: 10 }],
      "variants.0.salePrice",
      "A variant's sale price needs its own price (or leave both empty to use the product's)",
    ],
    [
      "a sale price not below the price",
      [{ size: "S", totalStock: 1, price: 10, salePrice: 10 }],
      "variants.0.salePrice",
      "Sale price must be lower than the variant's price",
    ],
    [
      "a SKU with spaces",
      [{ sku: "TEE M", totalStock: 1 }],
      "variants.0.sku",
      "SKU may hold letters, digits and - _ . / only, and starts with a letter or digit",
    ],
    [
      "a SKU too long",
      [{ sku: "A".repeat(65), totalStock: 1 }],
      "variants.0.sku",
      "SKU must be at most 64 characters",
    ],
    [
      "the same size and colour twice",
      [
        { size: "M", totalStock: 1 },
        { size: "S", totalStock: 1 },
        { size: "m", totalStock: 2 },
      ],
      "variants.2.size",
      "Size and colour M are given twice (also in row 1)",
    ],
    [
      "the same SKU twice in the request",
      [
        { size: "S", sku: "TEE-1", totalStock: 1 },
        { size: "M", sku: "tee-1", totalStock: 1 },
      ],
      "variants.1.sku",
      "SKU tee-1 is given twice (also in row 1)",
    ],
    ["no variants", [], "variants", "Give between 1 and 60 sizes and colours"],
    [
      "more than 60 variants",
      Array.from({ length: 61 }, (_, i) => ({ sku: `X${i}`, totalStock: 1 })),
      "variants",
      "Give between 1 and 60 sizes and colours",
    ],
    ["variants that are not a list", "S,M", "variants", "Give between 1 and 60 sizes and colours"],
    [
      "a variant that is not an object",
      [null],
      "variants.0",
      "Each size and colour must be an object such as { size, totalStock }",
    ],
  ])("refuses %s with 400 and the field's message", async (_name, variants, key, message) => {
    await expect(createProduct(withVariants(variants))).rejects.toMatchObject({
      status: 400,
      fieldErrors: { [key]: [message] },
    });
    expect(await getDb().models.Product.count()).toBe(0);
  });

  it("reports the product's mistakes and the variants' at once", async () => {
    await expect(
      createProduct({
        ...withVariants([
          { size: "Q", totalStock: 1 },
          { size: "S", totalStock: -1 },
        ]),
        title: "",
      }),
    ).rejects.toMatchObject({
      status: 400,
      fieldErrors: {
        title: ["Title is required"],
        "variants.0.size": [expect.stringContaining("Choose a size of the Men scale")],
        "variants.1.totalStock": ["Stock cannot be negative"],
      },
    });
  });

  it("answers 409 for a SKU another product's variant has (any case)", async () => {
    await createProduct(withVariants([{ size: "S", sku: "TEE-S", totalStock: 1 }]));
    await expect(
      createProduct(
        withVariants([
          { size: "M", totalStock: 1 },
          { size: "S", sku: "tee-s", totalStock: 1 },
        ]),
      ),
    ).rejects.toMatchObject({
      status: 409,
      message: "SKU tee-s is already used by another product",
      fieldErrors: { "variants.1.sku": ["SKU tee-s is already used by another product"] },
    });
    expect(await getDb().models.Product.count()).toBe(1);
  });

  it("answers 409, not 500, when two products take one SKU at the same moment", async () => {
    const outcomes = await Promise.allSettled([
      createProduct(withVariants([{ size: "S", sku: "RACE-1", totalStock: 1 }], { title: "A" })),
      createProduct(withVariants([{ size: "M", sku: "race-1", totalStock: 1 }], { title: "B" })),
    ]);
    expect(outcomes.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(1);
    const refused = outcomes.find((outcome) => outcome.status === "rejected") as PromiseRejectedResult;
    expect(refused.reason).toMatchObject({ status: 409 });
    expect(await getDb().models.Product.count()).toBe(1);
  });
});

describe("updateProduct with variants: the list replaces the product's", () => {
  async function threeSizes() {
    return createProduct(
      withVariants([
        { size: "S", totalStock: 2, sku: "TEE-S" },
        { size: "M", totalStock: 0, sku: "TEE-M" },
        { size: "L", totalStock: 5, sku: "TEE-L" },
      ]),
    );
  }

  it("updates kept ids, creates new entries and deletes missing ones", async () => {
    const product = await threeSizes();
    const [s, m] = product.variants;
    const updated = await updateProduct(product._id, {
      variants: [
        { _id: m!._id, size: "M", totalStock: 4 },
        { _id: s!._id, size: "S", sku: "TEE-S2", totalStock: 1 },
        { size: "XL", totalStock: 3 },
      ],
    });
    expect(updated.variants.map((v) => [v.size, v.totalStock, v.sku])).toEqual([
      ["S", 1, "TEE-S2"],
      // A kept variant without a SKU keeps its own.
      ["M", 4, "TEE-M"],
      ["XL", 3, expect.stringMatching(/^NIKE-\d{6}$/)],
    ]);
    expect(updated.variants[0]!._id).toBe(s!._id);
    expect(updated.variants[1]!._id).toBe(m!._id);
    expect(updated.totalStock).toBe(8);
    expect(await productStock(product._id)).toBe(8);
    expect((await variantRows(product._id)).map((v) => v.position)).toEqual([0, 1, 2]);
  });

  it("lets two kept variants swap their sizes and SKUs", async () => {
    const product = await threeSizes();
    const [s, m, l] = product.variants;
    const updated = await updateProduct(product._id, {
      variants: [
        { _id: s!._id, size: "M", sku: "TEE-M", totalStock: 2 },
        { _id: m!._id, size: "S", sku: "TEE-S", totalStock: 0 },
        { _id: l!._id, size: "L", sku: "TEE-L", totalStock: 5 },
      ],
    });
    expect(updated.variants.map((v) => [v._id, v.size, v.sku])).toEqual([
      [m!._id, "S", "TEE-S"],
      [s!._id, "M", "TEE-M"],
      [l!._id, "L", "TEE-L"],
    ]);
  });

  it("refuses an _id that is not one of this product's variants (400)", async () => {
    const product = await threeSizes();
    const other = await createProduct({ ...base, title: "Other", totalStock: 1 });
    await expect(
      updateProduct(product._id, { variants: [{ _id: other.variants[0]!._id, size: "S", totalStock: 1 }] }),
    ).rejects.toMatchObject({
      status: 400,
      fieldErrors: { "variants.0._id": [expect.stringContaining("not one of this product's")] },
    });
    await expect(
      updateProduct(product._id, { variants: [{ _id: "not-a-uuid", size: "S", totalStock: 1 }] }),
    ).rejects.toMatchObject({ status: 400 });
    expect((await getAdminProduct(product._id)).variants).toHaveLength(3);
    expect((await getAdminProduct(other._id)).variants).toHaveLength(1);
  });

  it("answers 409 for a SKU of another product, keeping the product as it was", async () => {
    const product = await threeSizes();
    await createProduct(withVariants([{ size: "S", sku: "OTHER-1", totalStock: 1 }], { title: "Other" }));
    await expect(
      updateProduct(product._id, { variants: [{ size: "S", sku: "OTHER-1", totalStock: 1 }] }),
    ).rejects.toMatchObject({ status: 409 });
    expect((await getAdminProduct(product._id)).variants.map((v) => v.sku)).toEqual([
      "TEE-S",
      "TEE-M",
      "TEE-L",
    ]);
  });

  it("revalidates the sizes against a new category's scale", async () => {
    const product = await threeSizes();
    const ids = product.variants.map((v) => v._id);
    await expect(
      updateProduct(product._id, {
        category: "kids",
        variants: [{ _id: ids[0], size: "S", totalStock: 1 }],
      }),
    ).rejects.toMatchObject({
      status: 400,
      fieldErrors: { "variants.0.size": [expect.stringContaining("Choose a size of the Kids scale: 2-3Y")] },
    });
    // Without variants the sizes stay, so they must fit the new scale.
    await expect(updateProduct(product._id, { category: "footwear" })).rejects.toMatchObject({
      status: 400,
      fieldErrors: { category: [expect.stringContaining("The sizes S, M, L are not of the Footwear scale")] },
    });
    const moved = await updateProduct(product._id, {
      category: "kids",
      variants: [{ _id: ids[0], size: "4-5y", totalStock: 1 }],
    });
    expect(moved).toMatchObject({ category: "kids", variants: [expect.objectContaining({ size: "4-5Y" })] });
  });

  it("without variants: sets a one-variant product's stock from totalStock", async () => {
    const product = await createProduct({ ...base, totalStock: 3 });
    const updated = await updateProduct(product._id, { totalStock: 9 });
    expect(updated.variants).toEqual([
      expect.objectContaining({ _id: product.variants[0]!._id, totalStock: 9 }),
    ]);
    expect(updated.totalStock).toBe(9);
  });

  it("without variants: refuses a new total for a product with several sizes, accepts the same one", async () => {
    const product = await threeSizes();
    await expect(updateProduct(product._id, { totalStock: 10 })).rejects.toMatchObject({
      status: 400,
      fieldErrors: { totalStock: [expect.stringContaining("set the stock of each")] },
    });
    await expect(updateProduct(product._id, { totalStock: 7, title: "Same total" })).resolves.toMatchObject({
      title: "Same total",
      totalStock: 7,
    });
    await expect(updateProduct(product._id, { title: "No total" })).resolves.toMatchObject({ totalStock: 7 });
  });

  it("takes a removed size out of carts with a notice, and orders keep their copy", async () => {
    const product = await threeSizes();
    const [s, m] = product.variants;
    const { Cart, CartItem, Order, OrderItem } = getDb().models;
    const cart = await Cart.create({ userId: callers.shopperId });
    await CartItem.create({ cartId: cart.id, productId: product._id, variantId: s!._id, quantity: 1 });
    await CartItem.create({ cartId: cart.id, productId: product._id, variantId: m!._id, quantity: 2 });
    const order = await Order.create({
      userId: callers.shopperId,
      cartId: null,
      addressInfo: {
        addressId: null,
        address: "1 Road",
        city: "Town",
        pincode: "12345",
        phone: "555",
        notes: "",
      },
      orderStatus: "confirmed",
      paymentStatus: "paid",
      totalAmount: "25.00",
      orderDate: new Date(),
      orderUpdateDate: new Date(),
      paymentId: null,
      payerId: null,
    });
    await OrderItem.create({
      orderId: order.id,
      productId: product._id,
      variantId: s!._id,
      sku: "TEE-S",
      size: "S",
      colour: null,
      title: "Classic Tee",
      image: base.image,
      price: "25.00",
      quantity: 1,
    });

    await updateProduct(product._id, {
      variants: product.variants.filter((v) => v.size !== "S").map((v) => ({ ...v })),
    });

    const view = await getCartView(callers.shopperId);
    expect(view.items.map((item) => item.variantId)).toEqual([m!._id]);
    expect(view.notices).toEqual(['"Classic Tee" in S is no longer sold and was taken out of your cart']);
    const line = await OrderItem.findOne({ where: { orderId: order.id }, raw: true });
    expect(line).toMatchObject({ variantId: s!._id, sku: "TEE-S", size: "S", quantity: 1 });
  });

  it("two admins saving the sizes of one product at once leave it consistent (total = sum)", async () => {
    const product = await threeSizes();
    const [s, m, l] = product.variants;
    const first = [
      { _id: s!._id, size: "S", totalStock: 11 },
      { _id: m!._id, size: "M", totalStock: 12 },
    ];
    const second = [
      { _id: m!._id, size: "M", totalStock: 21 },
      { _id: l!._id, size: "L", totalStock: 22 },
      { size: "XL", totalStock: 23 },
    ];
    for (let round = 0; round < 3; round++) {
      const outcomes = await Promise.allSettled([
        updateProduct(product._id, { variants: first }),
        updateProduct(product._id, { variants: second }),
      ]);
      // The later one may find a variant the earlier one removed: a 400, never a 500 or a mix.
      for (const outcome of outcomes)
        if (outcome.status === "rejected") expect(outcome.reason).toMatchObject({ status: 400 });
      const rows = await variantRows(product._id);
      const stocks = rows.map((row) => row.stock).sort((a, b) => a - b);
      expect([
        [11, 12],
        [21, 22, 23],
      ]).toContainEqual(stocks);
      expect(await productStock(product._id)).toBe(stocks.reduce((sum, stock) => sum + stock, 0));
      // Back to three sizes for the next round.
      await updateProduct(product._id, {
        variants: ["S", "M", "L"].map((size) => {
          const row = rows.find((r) => r.size === size);
          return row ? { _id: row.id, size, totalStock: 1 } : { size, totalStock: 1 };
        }),
      });
      const reset = await variantRows(product._id);
      s!._id = reset[0]!.id;
      m!._id = reset[1]!.id;
      l!._id = reset[2]!.id;
    }
  });
});

describe("the JSON API passes variants", () => {
  it("adds (201) and edits a product with sizes; answers match the OpenAPI document", async () => {
    const added = await run(
      addApi,
      jsonRequest("/api/admin/products/add", {
        json: withVariants([
          { size: "S", totalStock: 2 },
          { size: "M", totalStock: 0, colour: "navy", price: 30, salePrice: null },
        ]),
        cookie: callers.admin,
      }),
    );
    expect(added.status).toBe(201);
    const body = await readApi(added);
    const product = body.data as { _id: string; totalStock: number; variants: Variant[] };
    expect(product.totalStock).toBe(2);
    expect(product.variants.map((v) => [v.size, v.colour, v.price])).toEqual([
      ["S", null, 25],
      ["M", "navy", 30],
    ]);

    const edited = await run(
      editApi,
      jsonRequest(`/api/admin/products/edit/${product._id}`, {
        method: "PUT",
        json: { variants: [{ _id: product.variants[0]!._id, size: "S", totalStock: 6 }] },
        cookie: callers.admin,
      }),
      { id: product._id },
    );
    expect(edited.status).toBe(200);
    expect(((await readApi(edited)).data as { totalStock: number }).totalStock).toBe(6);
  });

  it("answers 400 with field keys such as variants.2.size, and 409 for a taken SKU", async () => {
    const bad = await run(
      addApi,
      jsonRequest("/api/admin/products/add", {
        json: withVariants([
          { size: "S", totalStock: 1 },
          { size: "M", totalStock: 1 },
          { size: "EU 40", totalStock: 1 },
        ]),
        cookie: callers.admin,
      }),
    );
    expect(bad.status).toBe(400);
    expect((await readApi(bad)).errors).toEqual({
      "variants.2.size": ["Choose a size of the Men scale: XS, S, M, L, XL, XXL"],
    });
    await createProduct(withVariants([{ sku: "TAKEN-1", totalStock: 1 }]));
    const taken = await run(
      addApi,
      jsonRequest("/api/admin/products/add", {
        json: withVariants([{ sku: "TAKEN-1", totalStock: 1 }]),
        cookie: callers.admin,
      }),
    );
    expect(taken.status).toBe(409);
    expect(await readApi(taken)).toMatchObject({
      success: false,
      message: "SKU TAKEN-1 is already used by another product",
    });
  });
});

describe("the products page edits sizes without JavaScript", () => {
  const form = (fields: Record<string, string>) =>
    multipartRequest(
      "/admin/products?panel=new",
      {
        image: base.image,
        title: "Form Tee",
        description: "Sizes by form",
        category: "men",
        brand: "zara",
        price: "30",
        salePrice: "",
        ...fields,
      },
      callers.admin,
    );
  type Reply = {
    result: {
      initialValue: { variants?: (Record<string, string> | null)[] };
      error: Record<string, string[]> | null;
    };
  };

  it("adds a row, keeping everything typed", async () => {
    const response = await run(
      adminProductsAction,
      form({
        // "Add a row": conform's insert intent, as its button posts it without JavaScript.
        __intent__: JSON.stringify({ type: "insert", payload: { name: "variants", defaultValue: {} } }),
        "variants[0].size": "M",
        "variants[0].totalStock": "4",
        "variants[0].sku": "F-M",
      }),
    );
    expect(response.status).toBe(200);
    const { result } = (await response.json()) as Reply;
    expect(result.initialValue).toMatchObject({ title: "Form Tee", price: "30" });
    expect(result.initialValue.variants).toEqual([{ size: "M", totalStock: "4", sku: "F-M" }, {}]);
    expect(result.error ?? {}).toEqual({});
    expect(await getDb().models.Product.count()).toBe(0);
  });

  it("adds every size of the category's scale that no row has yet", async () => {
    const response = await run(
      adminProductsAction,
      form({ intent: "variant-add-scale", "variants[0].size": "M", "variants[0].totalStock": "4" }),
    );
    const { result } = (await response.json()) as Reply;
    expect(result.initialValue.variants?.map((row) => row?.size)).toEqual(["M", "XS", "S", "L", "XL", "XXL"]);
    expect(result.initialValue.variants?.[0]).toEqual({ size: "M", totalStock: "4" });
  });

  it("removes the row whose button was pressed", async () => {
    const response = await run(
      adminProductsAction,
      form({
        // The first row's "Remove": conform's remove intent.
        __intent__: JSON.stringify({ type: "remove", payload: { name: "variants", index: 0 } }),
        "variants[0].size": "S",
        "variants[0].totalStock": "1",
        "variants[1].size": "L",
        "variants[1].totalStock": "5",
      }),
    );
    const { result } = (await response.json()) as Reply;
    expect(result.initialValue.variants).toEqual([{ size: "L", totalStock: "5" }]);
  });

  it("saves the rows, and sends a row's mistake back next to its input", async () => {
    const refused = await run(
      adminProductsAction,
      form({
        intent: "create",
        "variants[0].size": "S",
        "variants[0].totalStock": "1",
        "variants[1].size": "M",
        "variants[1].totalStock": "-2",
      }),
    );
    expect(refused.status).toBe(400);
    const { result } = (await refused.json()) as Reply;
    expect(result.error).toEqual({ "variants[1].totalStock": ["Stock cannot be negative"] });
    expect(result.initialValue.variants?.[1]).toMatchObject({ size: "M", totalStock: "-2" });

    const saved = await run(
      adminProductsAction,
      form({
        intent: "create",
        "variants[0].size": "S",
        "variants[0].totalStock": "2",
        "variants[0].sku": "",
        "variants[1].size": "L",
        "variants[1].colour": "",
        "variants[1].totalStock": "5",
        "variants[1].price": "",
        "variants[1].salePrice": "",
      }),
    );
    expect(saved.status).toBe(302);
    const product = await getDb().models.Product.findOne({ where: { title: "Form Tee" }, raw: true });
    expect((await variantRows(product!.id)).map((v) => [v.size, v.stock])).toEqual([
      ["S", 2],
      ["L", 5],
    ]);
  });
});

describe("the products page without rows", () => {
  it("asks for a row when every row was removed, and takes a plain totalStock as one variant", async () => {
    const fields = {
      intent: "create",
      image: base.image,
      title: "Rowless Tee",
      description: "No rows",
      category: "men",
      brand: "zara",
      price: "30",
    };
    const refused = await run(
      adminProductsAction,
      multipartRequest("/admin/products", fields, callers.admin),
    );
    expect(refused.status).toBe(400);
    const { result } = (await refused.json()) as { result: { error: Record<string, string[]> } };
    expect(result.error).toEqual({ variants: ["Give between 1 and 60 sizes and colours"] });

    const saved = await run(
      adminProductsAction,
      multipartRequest("/admin/products", { ...fields, totalStock: "6" }, callers.admin),
    );
    expect(saved.status).toBe(302);
    const product = await getDb().models.Product.findOne({ where: { title: "Rowless Tee" }, raw: true });
    expect((await variantRows(product!.id)).map((v) => [v.size, v.stock])).toEqual([[null, 6]]);
  });
});
