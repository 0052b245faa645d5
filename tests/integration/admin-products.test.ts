import { existsSync } from "node:fs";
import path from "node:path";
import { QueryTypes } from "sequelize";
import { beforeEach, describe, expect, it } from "vitest";
import { getConfig } from "../../app/lib/server/config.server";
import { getDb, setQueryListener } from "../../app/models/db.server";
import {
  action as adminProductsAction,
  loader as adminProductsLoader,
} from "../../app/routes/admin.products";
import { action as addApi, loader as addApiLoader } from "../../app/routes/api.admin.products.add";
import { action as deleteApi } from "../../app/routes/api.admin.products.delete.$id";
import { action as editApi } from "../../app/routes/api.admin.products.edit.$id";
import { loader as getApi } from "../../app/routes/api.admin.products.get";
import { createProduct, deleteProduct, updateProduct } from "../../app/services/product-writer.server";
import { listAdminProducts } from "../../app/services/admin-catalog.server";
import { storeImage } from "../../app/services/uploads.server";
import { seedLargeCatalog } from "../../db/seed/seed";
import { resetDatabase } from "../support/database";
import {
  createCallers,
  createOrderRow,
  createProductRow,
  file,
  formRequest,
  jsonRequest,
  multipartRequest,
  PNG_BYTES,
  readApi,
  run,
  type Callers,
  uploaded,
} from "./admin-support";

const validProduct = {
  image: "/images/products/classic-tee.svg",
  title: "Classic Tee",
  description: "Soft cotton tee",
  category: "men",
  brand: "nike",
  price: 25,
  salePrice: 19.99,
  totalStock: 12,
  averageReview: 0,
};

async function productRow(id: string) {
  const rows = await getDb().sequelize.query<Record<string, unknown>>(
    "SELECT title, price::text, sale_price::text AS sale, total_stock AS stock, image FROM products WHERE id = :id",
    { replacements: { id }, type: QueryTypes.SELECT },
  );
  return rows[0];
}

function uploadPath(url: string) {
  return path.join(getConfig().uploadDir, url.replace("/uploads/", ""));
}

let callers: Callers;
beforeEach(async () => {
  await resetDatabase();
  callers = await createCallers();
});

describe("createProduct: API.md's rules", () => {
  it("stores exact money and answers the product in the spec's shape", async () => {
    const product = await createProduct(validProduct);
    expect(product).toMatchObject({
      title: "Classic Tee",
      price: 25,
      salePrice: 19.99,
      totalStock: 12,
      averageReview: 0,
      category: "men",
      brand: "nike",
    });
    expect(await productRow(product._id)).toMatchObject({ price: "25.00", sale: "19.99", stock: 12 });
  });

  it("reads form strings the same way as JSON numbers", async () => {
    const product = await createProduct({ ...validProduct, price: " 49.9 ", salePrice: "", totalStock: "7" });
    expect(await productRow(product._id)).toMatchObject({ price: "49.90", sale: null, stock: 7 });
  });

  it.each([
    ["0", 0],
    ["empty", ""],
    ["null", null],
    ["missing", undefined],
  ])("stores a %s sale price as no sale (NULL)", async (_name, salePrice) => {
    const product = await createProduct({ ...validProduct, salePrice });
    expect(product.salePrice).toBe(0);
    expect((await productRow(product._id))?.sale).toBeNull();
  });

  it("accepts an http(s) image URL and a path this shop serves", async () => {
    await expect(
      createProduct({ ...validProduct, image: "https://cdn.example.com/tee.png" }),
    ).resolves.toBeTruthy();
    const stored = await storeImage(uploaded(PNG_BYTES, "tee.png", "image/png"));
    await expect(createProduct({ ...validProduct, image: stored.url })).resolves.toMatchObject({
      image: stored.url,
    });
  });

  it.each([
    ["title", { title: "" }, "Title is required"],
    ["title", { title: "   " }, "Title is required"],
    ["title", { title: "x".repeat(201) }, "Title must be at most 200 characters"],
    ["title", { title: 42 }, "Title must be text"],
    ["description", { description: undefined }, "Description is required"],
    ["description", { description: "x".repeat(5001) }, "Description must be at most 5000 characters"],
    ["title", { title: "Tee\u0000" }, "Title cannot contain control characters (such as NUL)"],
    ["title", { title: "Tee \u001b[31mred" }, "Title cannot contain control characters (such as NUL)"],
    [
      "description",
      { description: "Soft\u0000cotton" },
      "Description cannot contain control characters (such as NUL)",
    ],
    [
      "description",
      { description: "Soft\u0085cotton" },
      "Description cannot contain control characters (such as NUL)",
    ],
    ["category", { category: "pets" }, "Choose a category: Men, Women, Kids, Accessories, Footwear"],
    ["category", { category: "" }, "Category is required"],
    ["brand", { brand: "gucci" }, "Choose a brand: Nike, Adidas, Puma, Levi's, Zara, H&M"],
    ["brand", { brand: ["nike"] }, "Choose a brand: Nike, Adidas, Puma, Levi's, Zara, H&M"],
    ["price", { price: 0 }, "Price must be greater than 0"],
    ["price", { price: -5 }, "Price must be greater than 0"],
    ["price", { price: "" }, "Price is required"],
    ["price", { price: "ten" }, "Price must be an amount such as 49.90"],
    ["price", { price: 10.999 }, "Price must be an amount such as 49.90"],
    ["price", { price: "1e3" }, "Price must be an amount such as 49.90"],
    ["price", { price: Number.POSITIVE_INFINITY }, "Price must be an amount such as 49.90"],
    ["price", { price: { amount: 5 } }, "Price must be an amount such as 49.90"],
    ["price", { price: 1_000_000.01 }, "Price must be at most 1000000"],
    ["salePrice", { salePrice: -1 }, "Sale price cannot be negative"],
    ["salePrice", { salePrice: 25 }, "Sale price must be lower than the price"],
    ["salePrice", { salePrice: 30 }, "Sale price must be lower than the price"],
    ["salePrice", { salePrice: "cheap" }, "Sale price must be an amount such as 39.90"],
    ["totalStock", { totalStock: 1.5 }, "Total stock must be a whole number"],
    ["totalStock", { totalStock: "3.0" }, "Total stock must be a whole number"],
    ["totalStock", { totalStock: -1 }, "Total stock cannot be negative"],
    ["totalStock", { totalStock: 10_000_000 }, "Total stock must be at most 1000000"],
    ["totalStock", { totalStock: "" }, "Total stock is required"],
    ["image", { image: "" }, "Please upload an image"],
    ["image", { image: "javascript:alert(1)" }, "Image must be an uploaded image or an http(s) URL"],
    ["image", { image: "/etc/passwd" }, "Image must be an uploaded image or an http(s) URL"],
    ["image", { image: "/images/../secret.svg" }, "Image must be an uploaded image or an http(s) URL"],
    ["image", { image: "/uploads/not-generated.png" }, "Image must be an uploaded image or an http(s) URL"],
    [
      "image",
      { image: `https://x.example/${"a".repeat(2100)}` },
      "Image URL must be at most 2048 characters",
    ],
    [
      "image",
      { image: "/uploads/00000000-0000-4000-8000-000000000000.png" },
      "This image was not uploaded to the shop: upload it again",
    ],
  ])("refuses a bad %s (%j)", async (field, change, message) => {
    await expect(createProduct({ ...validProduct, ...change })).rejects.toMatchObject({
      status: 400,
      fieldErrors: { [field]: [message] },
    });
    expect(await getDb().models.Product.count()).toBe(0);
  });

  it("keeps the tabs and line breaks typed into a description", async () => {
    const product = await createProduct({ ...validProduct, description: "Soft cotton.\r\n\tMachine wash." });
    expect(product.description).toBe("Soft cotton.\r\n\tMachine wash.");
  });

  it("names every missing field at once", async () => {
    await expect(createProduct({})).rejects.toMatchObject({
      status: 400,
      fieldErrors: {
        image: ["Please upload an image"],
        title: ["Title is required"],
        description: ["Description is required"],
        category: ["Category is required"],
        brand: ["Brand is required"],
        price: ["Price is required"],
        totalStock: ["Total stock is required"],
      },
    });
  });
});

describe("several mistakes at once", () => {
  it("reports the sale price rule alongside other mistakes, the image's among them", async () => {
    await expect(
      createProduct({ image: "", title: "Bad", price: "10", salePrice: "12", totalStock: "x" }),
    ).rejects.toMatchObject({
      fieldErrors: {
        image: ["Please upload an image"],
        salePrice: ["Sale price must be lower than the price"],
        totalStock: ["Total stock must be a whole number"],
      },
    });
  });
});

describe("updateProduct and deleteProduct", () => {
  it("changes only the fields given and validates the whole product again", async () => {
    const product = await createProduct(validProduct);
    const updated = await updateProduct(product._id, { title: "Classic Tee v2", totalStock: 0 });
    expect(updated).toMatchObject({ title: "Classic Tee v2", totalStock: 0, price: 25, salePrice: 19.99 });
    // Lowering the price below the existing sale price breaks a rule of the whole product.
    await expect(updateProduct(product._id, { price: 15 })).rejects.toMatchObject({
      status: 400,
      fieldErrors: { salePrice: ["Sale price must be lower than the price"] },
    });
    await expect(updateProduct(product._id, { price: 15, salePrice: 0 })).resolves.toMatchObject({
      price: 15,
      salePrice: 0,
    });
  });

  it("answers 404 for unknown and malformed ids", async () => {
    for (const id of ["00000000-0000-4000-8000-000000000000", "not-a-uuid", "' OR 1=1 --"]) {
      await expect(updateProduct(id, { title: "x" })).rejects.toMatchObject({ status: 404 });
      await expect(deleteProduct(id)).rejects.toMatchObject({ status: 404 });
    }
  });

  it("removes the product from carts but keeps it in order history as a snapshot", async () => {
    const product = await createProductRow({ title: "Going Away", price: "30.00" });
    const { Cart, CartItem, OrderItem, ProductVariant, Review } = getDb().models;
    const cart = await Cart.create({ userId: callers.shopperId });
    // A cart line is a variant: the product's one (made for it when it was written).
    const variant = await ProductVariant.findOne({ where: { productId: product.id }, raw: true });
    await CartItem.create({ cartId: cart.id, productId: product.id, variantId: variant!.id, quantity: 2 });
    await Review.create({
      productId: product.id,
      userId: callers.shopperId,
      userName: "Sam",
      reviewMessage: "Nice",
      reviewValue: 5,
    });
    const order = await createOrderRow({
      userId: callers.shopperId,
      items: [{ productId: product.id, title: "Going Away", price: "30.00", quantity: 1 }],
    });

    await deleteProduct(product.id);

    expect(await CartItem.count({ where: { cartId: cart.id } })).toBe(0);
    expect(await Review.count()).toBe(0);
    const lines = await OrderItem.findAll({ where: { orderId: order.id }, raw: true });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ productId: null, title: "Going Away", price: "30.00", quantity: 1 });
  });

  it("deletes an uploaded image nothing shows any more, and keeps one an order still shows", async () => {
    const lonely = await storeImage(uploaded(PNG_BYTES, "a.png", "image/png"));
    const ordered = await storeImage(uploaded(PNG_BYTES, "b.png", "image/png"));
    const first = await createProduct({ ...validProduct, image: lonely.url });
    const second = await createProduct({ ...validProduct, image: ordered.url });
    await createOrderRow({
      userId: callers.shopperId,
      items: [
        { productId: second._id, title: "Classic Tee", image: ordered.url, price: "19.99", quantity: 1 },
      ],
    });
    await deleteProduct(first._id);
    await deleteProduct(second._id);
    expect(existsSync(uploadPath(lonely.url))).toBe(false);
    expect(existsSync(uploadPath(ordered.url))).toBe(true);
  });

  it("deletes the replaced upload when an edit changes the image", async () => {
    const before = await storeImage(uploaded(PNG_BYTES, "a.png", "image/png"));
    const after = await storeImage(uploaded(PNG_BYTES, "b.png", "image/png"));
    const product = await createProduct({ ...validProduct, image: before.url });
    await updateProduct(product._id, { image: after.url });
    expect(existsSync(uploadPath(before.url))).toBe(false);
    expect(existsSync(uploadPath(after.url))).toBe(true);
  });
});

describe("listAdminProducts", () => {
  it("lists newest first, a page at a time", async () => {
    const base = Date.now() - 100_000;
    for (let i = 0; i < 5; i++)
      await createProductRow({ title: `P${i}`, createdAt: new Date(base + i * 1000) });
    const first = await listAdminProducts({ page: 1, limit: 2 });
    expect(first.products.map((p) => p.title)).toEqual(["P4", "P3"]);
    expect(first.pagination).toEqual({ page: 1, limit: 2, total: 5, pages: 3 });
    const last = await listAdminProducts({ page: 3, limit: 2 });
    expect(last.products.map((p) => p.title)).toEqual(["P0"]);
    expect((await listAdminProducts({ page: 9, limit: 2 })).products).toEqual([]);
  });

  it("searches titles case-insensitively, with %, _ and \\ as plain characters", async () => {
    await createProductRow({ title: "Denim Jacket" });
    await createProductRow({ title: "Blue DENIM jeans" });
    await createProductRow({ title: "100% Cotton Tee" });
    await createProductRow({ title: "Cotton_Blend Tee" });
    await createProductRow({ title: "Wool Scarf" });
    const titles = async (search: string) =>
      (await listAdminProducts({ page: 1, limit: 10, search })).products.map((p) => p.title).sort();
    expect(await titles("denim")).toEqual(["Blue DENIM jeans", "Denim Jacket"]);
    expect(await titles("%")).toEqual(["100% Cotton Tee"]);
    expect(await titles("_")).toEqual(["Cotton_Blend Tee"]);
    expect(await titles("\\")).toEqual([]);
    expect(await titles("'; DROP TABLE products; --")).toEqual([]);
    expect(await getDb().models.Product.count()).toBe(5);
  });

  it("pages through 10,000 products with one statement per page, whose rows carry the total", async () => {
    await seedLargeCatalog(getDb(), 10_000);
    const statements: string[] = [];
    setQueryListener((sql) => statements.push(sql));
    // No test times anything (speed is measured in bench/); what keeps a deep page cheap is that it is one statement.
    const page = await listAdminProducts({ page: 200, limit: 24 });
    setQueryListener(undefined);
    expect(page.products).toHaveLength(24);
    expect(page.pagination).toMatchObject({ total: 10_000, pages: 417 });
    expect(statements).toHaveLength(1);
    const searched = await listAdminProducts({ page: 1, limit: 24, search: "tee" });
    expect(searched.products.every((p) => /tee/i.test(p.title))).toBe(true);
  }, 60_000);
});

describe("the products API", () => {
  const id = "00000000-0000-4000-8000-000000000000";

  it("refuses anonymous callers (401) and shoppers (403) on every endpoint", async () => {
    const product = await createProductRow();
    for (const [cookie, status] of [
      [null, 401],
      [callers.shopper, 403],
    ] as const) {
      const answers = [
        await run(addApi, jsonRequest("/api/admin/products/add", { json: validProduct, cookie })),
        await run(getApi, jsonRequest("/api/admin/products/get", { cookie })),
        await run(
          editApi,
          jsonRequest(`/api/admin/products/edit/${product.id}`, {
            method: "PUT",
            json: { title: "x" },
            cookie,
          }),
          { id: product.id },
        ),
        await run(
          deleteApi,
          jsonRequest(`/api/admin/products/delete/${product.id}`, { method: "DELETE", cookie }),
          {
            id: product.id,
          },
        ),
      ];
      for (const response of answers) {
        expect(response.status).toBe(status);
        expect((await readApi(response)).success).toBe(false);
      }
    }
    expect(await productRow(product.id)).toMatchObject({ title: product.title });
  });

  it("adds (201), lists, edits and deletes for an admin", async () => {
    const added = await run(
      addApi,
      jsonRequest("/api/admin/products/add", { json: validProduct, cookie: callers.admin }),
    );
    expect(added.status).toBe(201);
    const addBody = await readApi(added);
    expect(addBody).toMatchObject({ success: true, message: "Product added successfully" });
    const productId = (addBody.data as { _id: string })._id;

    const listed = await readApi(
      await run(
        getApi,
        jsonRequest("/api/admin/products/get?page=1&limit=10&search=classic", { cookie: callers.admin }),
      ),
    );
    expect(listed.data).toEqual([expect.objectContaining({ _id: productId, title: "Classic Tee" })]);
    expect(listed.pagination).toEqual({ page: 1, limit: 10, total: 1, pages: 1 });

    const edited = await run(
      editApi,
      jsonRequest(`/api/admin/products/edit/${productId}`, {
        method: "PUT",
        json: { salePrice: 0 },
        cookie: callers.admin,
      }),
      { id: productId },
    );
    expect(edited.status).toBe(200);
    expect(await readApi(edited)).toMatchObject({
      success: true,
      message: "Product updated successfully",
      data: { salePrice: 0, price: 25 },
    });

    const deleted = await run(
      deleteApi,
      jsonRequest(`/api/admin/products/delete/${productId}`, { method: "DELETE", cookie: callers.admin }),
      { id: productId },
    );
    expect(deleted.status).toBe(200);
    expect(await readApi(deleted)).toEqual({ success: true, message: "Product deleted successfully" });
    expect(await getDb().models.Product.count()).toBe(0);
  });

  it("answers malformed bodies with 4xx JSON, never 500", async () => {
    const cases: [Request, number][] = [
      [
        jsonRequest("/api/admin/products/add", {
          body: "title=x",
          contentType: "application/x-www-form-urlencoded",
          cookie: callers.admin,
        }),
        415,
      ],
      [jsonRequest("/api/admin/products/add", { body: "{not json", cookie: callers.admin }), 400],
      [jsonRequest("/api/admin/products/add", { body: "[1,2]", cookie: callers.admin }), 400],
      [jsonRequest("/api/admin/products/add", { body: "null", cookie: callers.admin }), 400],
      [jsonRequest("/api/admin/products/add", { json: {}, cookie: callers.admin }), 400],
      [
        jsonRequest("/api/admin/products/add", {
          json: { ...validProduct, title: "x".repeat(100_000) },
          cookie: callers.admin,
        }),
        400,
      ],
      [
        jsonRequest("/api/admin/products/add", {
          json: { ...validProduct, price: -10, totalStock: -3 },
          cookie: callers.admin,
        }),
        400,
      ],
      [
        jsonRequest("/api/admin/products/add", {
          json: { ...validProduct, category: "pets" },
          cookie: callers.admin,
        }),
        400,
      ],
      [
        jsonRequest("/api/admin/products/add", {
          json: { ...validProduct, title: "Tee\u0000", description: "Soft\u0000" },
          cookie: callers.admin,
        }),
        400,
      ],
      [
        jsonRequest("/api/admin/products/add", {
          json: { ...validProduct, price: true, title: { a: 1 } },
          cookie: callers.admin,
        }),
        400,
      ],
    ];
    for (const [request, status] of cases) {
      const response = await run(addApi, request);
      expect(response.status).toBe(status);
      const body = await readApi(response);
      expect(body.success).toBe(false);
      expect(body.message).toBeTruthy();
    }
    const invalid = await readApi(
      await run(
        addApi,
        jsonRequest("/api/admin/products/add", {
          json: { ...validProduct, category: "pets", price: -1 },
          cookie: callers.admin,
        }),
      ),
    );
    expect(invalid.errors).toMatchObject({
      category: [expect.stringContaining("Choose a category")],
      price: ["Price must be greater than 0"],
    });
    expect(await getDb().models.Product.count()).toBe(0);
  });

  it("answers 404 for unknown or malformed ids, 400 for bad paging, 405 for other methods", async () => {
    for (const badId of [id, "nope", "%27"]) {
      const edit = await run(
        editApi,
        jsonRequest(`/api/admin/products/edit/${badId}`, {
          method: "PUT",
          json: { title: "x" },
          cookie: callers.admin,
        }),
        { id: badId },
      );
      expect(edit.status).toBe(404);
      const del = await run(
        deleteApi,
        jsonRequest(`/api/admin/products/delete/${badId}`, { method: "DELETE", cookie: callers.admin }),
        { id: badId },
      );
      expect(del.status).toBe(404);
      expect(await readApi(del)).toEqual({ success: false, message: "Product not found" });
    }
    for (const query of ["page=0", "page=-1", "page=abc", "limit=1000", "limit=1.5"]) {
      const response = await run(
        getApi,
        jsonRequest(`/api/admin/products/get?${query}`, { cookie: callers.admin }),
      );
      expect(response.status, query).toBe(400);
    }
    const get = await run(addApiLoader, jsonRequest("/api/admin/products/add", { cookie: callers.admin }));
    expect(get.status).toBe(405);
  });
});

describe("the products page (works without JavaScript)", () => {
  it("sends shoppers to the access-denied page and anonymous visitors to sign in", async () => {
    const shopper = await run(
      adminProductsLoader,
      jsonRequest("/admin/products", { cookie: callers.shopper }),
    );
    expect(shopper.headers.get("Location")).toBe("/unauth-page");
    const anonymous = await run(
      adminProductsAction,
      formRequest("/admin/products", { intent: "delete", id: "x" }),
    );
    expect(anonymous.headers.get("Location")).toMatch(/^\/auth\/login/);
  });

  it("renders the panel state from the URL: ?panel=new, ?edit=ID, ?delete=ID", async () => {
    const product = await createProductRow({ title: "Editable" });
    const read = async (query: string) =>
      (
        await run(adminProductsLoader, jsonRequest(`/admin/products${query}`, { cookie: callers.admin }))
      ).json();
    expect(await read("?panel=new")).toMatchObject({ panel: "new", editing: null });
    expect(await read(`?edit=${product.id}`)).toMatchObject({
      panel: "edit",
      editing: { title: "Editable" },
    });
    expect(await read(`?delete=${product.id}`)).toMatchObject({
      panel: null,
      deleting: { title: "Editable" },
    });
    const gone = await run(
      adminProductsLoader,
      jsonRequest("/admin/products?edit=00000000-0000-4000-8000-000000000000", { cookie: callers.admin }),
    );
    expect(gone.status).toBe(302);
    expect(gone.headers.get("Location")).toBe("/admin/products");
  });

  it("adds a product with its file in the same multipart form", async () => {
    const response = await run(
      adminProductsAction,
      multipartRequest(
        "/admin/products?panel=new",
        {
          intent: "create",
          image: "",
          my_file: file(PNG_BYTES, "C:\\Users\\me\\tee.png", "image/png"),
          title: "Form Tee",
          description: "Added without JavaScript",
          category: "women",
          brand: "zara",
          price: "30",
          salePrice: "0",
          // The form's stock is its variant table's rows.
          "variants[0].totalStock": "4",
        },
        callers.admin,
      ),
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/admin/products");
    expect(response.headers.get("Set-Cookie")).toContain("__flash=");
    const row = await getDb().models.Product.findOne({ where: { title: "Form Tee" }, raw: true });
    expect(row?.image).toMatch(/^\/uploads\/[0-9a-f-]{36}\.png$/);
    expect(row?.image).not.toContain("tee");
    expect(existsSync(uploadPath(row!.image))).toBe(true);
  });

  it("sends the form back with field errors, keeping an uploaded file as its first picture", async () => {
    const response = await run(
      adminProductsAction,
      multipartRequest(
        "/admin/products?panel=new",
        {
          intent: "create",
          my_file: file(PNG_BYTES, "tee.png", "image/png"),
          title: "",
          description: "x",
          category: "pets",
          brand: "zara",
          price: "10",
          salePrice: "12",
          "variants[0].totalStock": "-2",
        },
        callers.admin,
      ),
    );
    expect(response.status).toBe(400);
    const { result } = (await response.json()) as {
      result: { error: Record<string, string[]>; initialValue: Record<string, string> };
    };
    expect(result.error).toMatchObject({
      title: ["Title is required"],
      category: [expect.stringContaining("Choose a category")],
      salePrice: ["Sale price must be lower than the price"],
      "variants[0].totalStock": ["Stock cannot be negative"],
    });
    // The form's file is its first picture now (the Pictures list): kept, so that no second upload is needed.
    expect((result.initialValue.images as unknown as { url: string }[])[0]?.url).toMatch(/^\/uploads\//);
    expect(result.initialValue).not.toHaveProperty("my_file");
    expect(await getDb().models.Product.count()).toBe(0);
  });

  it("refuses a non-image file in the form with the upload's message", async () => {
    const response = await run(
      adminProductsAction,
      multipartRequest(
        "/admin/products?panel=new",
        { intent: "create", my_file: file("just text", "photo.png", "image/png"), title: "T" },
        callers.admin,
      ),
    );
    expect(response.status).toBe(400);
    const { result } = (await response.json()) as { result: { error: Record<string, string[]> } };
    expect(result.error.image?.[0]).toMatch(/^Please upload an image file/);
  });

  it("edits a product, keeping the list's search and page", async () => {
    const product = await createProductRow({ title: "Old Title", price: "40.00" });
    const variant = await getDb().models.ProductVariant.findOne({
      where: { productId: product.id },
      raw: true,
    });
    const response = await run(
      adminProductsAction,
      multipartRequest(
        `/admin/products?q=old&edit=${product.id}`,
        {
          intent: "update",
          id: product.id,
          image: product.image,
          title: "New Title",
          description: "Changed",
          category: "kids",
          brand: "puma",
          price: "40",
          salePrice: "35.5",
          "variants[0]._id": variant!.id,
          "variants[0].totalStock": "8",
        },
        callers.admin,
      ),
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/admin/products?q=old");
    expect(await productRow(product.id)).toMatchObject({ title: "New Title", sale: "35.50", stock: 8 });
  });

  it("deletes after confirmation (a POST), and says so when the product is gone", async () => {
    const product = await createProductRow();
    const response = await run(
      adminProductsAction,
      formRequest("/admin/products?page=2", { intent: "delete", id: product.id }, callers.admin),
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/admin/products?page=2");
    expect(await getDb().models.Product.count()).toBe(0);
    const again = await run(
      adminProductsAction,
      formRequest("/admin/products", { intent: "delete", id: product.id }, callers.admin),
    );
    expect(again.status).toBe(302);
    expect(again.headers.get("Set-Cookie")).toContain("__flash=");
  });
});
