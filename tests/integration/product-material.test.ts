import { QueryTypes } from "sequelize";
import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "../../app/models/db.server";
import {
  action as adminProductsAction,
  loader as adminProductsLoader,
} from "../../app/routes/admin.products";
import { action as addApi } from "../../app/routes/api.admin.products.add";
import { action as editApi } from "../../app/routes/api.admin.products.edit.$id";
import { loader as productApi } from "../../app/routes/api.shop.products.get.$id";
import { loader as listingLoader } from "../../app/routes/shop.listing";
import { loader as productLoader } from "../../app/routes/shop.product.$id";
import { getOpenApiDocument } from "../../app/web/openapi/openapi.server";
import { resetDatabase } from "../support/database";
import { callRoute } from "../support/requests";
import {
  createCallers,
  createProductRow,
  jsonRequest,
  multipartRequest,
  readApi,
  run,
  type Callers,
} from "./admin-support";

/**
 * A product's material: an optional text of at most 80 characters that the
 * admin enters (API and form), the API returns, and the product page and
 * dialog show. It comes from one entry of the product's definition.
 */

const tee = {
  image: "/images/products/classic-tee.svg",
  title: "Organic Tee",
  description: "Soft and breathable",
  category: "men",
  brand: "nike",
  price: 25,
  salePrice: 0,
  totalStock: 12,
};

async function storedMaterial(id: string): Promise<string | null | undefined> {
  const rows = await getDb().sequelize.query<{ material: string | null }>(
    "SELECT material FROM products WHERE id = :id",
    { replacements: { id }, type: QueryTypes.SELECT },
  );
  return rows[0]?.material;
}

let callers: Callers;
beforeEach(async () => {
  await resetDatabase();
  callers = await createCallers();
});

describe("a product's material through the JSON API", () => {
  it("is stored trimmed when a product is added and returned by the admin and shop APIs", async () => {
    const added = await run(
      addApi,
      jsonRequest("/api/admin/products/add", {
        json: { ...tee, material: "  100% organic cotton " },
        cookie: callers.admin,
      }),
    );
    expect(added.status).toBe(201);
    const product = (await readApi(added)).data as { _id: string; material: string | null };
    expect(product.material).toBe("100% organic cotton");
    expect(await storedMaterial(product._id)).toBe("100% organic cotton");

    const shown = await readApi(
      await run(productApi, jsonRequest(`/api/shop/products/get/${product._id}`), { id: product._id }),
    );
    expect(shown.data).toMatchObject({ _id: product._id, material: "100% organic cotton" });
  });

  it("is null for a product without one, and an update that leaves it out keeps it", async () => {
    const plain = await createProductRow({ title: "No Material" });
    const shown = await readApi(
      await run(productApi, jsonRequest(`/api/shop/products/get/${plain.id}`), { id: plain.id }),
    );
    expect(shown.data).toMatchObject({ material: null });

    const edit = (json: unknown) =>
      run(
        editApi,
        jsonRequest(`/api/admin/products/edit/${plain.id}`, { method: "PUT", json, cookie: callers.admin }),
        { id: plain.id },
      );
    expect((await readApi(await edit({ material: "Wool" }))).data).toMatchObject({ material: "Wool" });
    expect((await readApi(await edit({ price: 30 }))).data).toMatchObject({ material: "Wool", price: 30 });
    expect(await storedMaterial(plain.id)).toBe("Wool");
    // Empty or null clears it.
    expect((await readApi(await edit({ material: "   " }))).data).toMatchObject({ material: null });
    await edit({ material: "Linen" });
    expect((await readApi(await edit({ material: null }))).data).toMatchObject({ material: null });
    expect(await storedMaterial(plain.id)).toBeNull();
  });

  it("refuses more than 80 characters and what is not text, with a 400 that names the field", async () => {
    const tooLong = await run(
      addApi,
      jsonRequest("/api/admin/products/add", {
        json: { ...tee, material: "x".repeat(81) },
        cookie: callers.admin,
      }),
    );
    expect(tooLong.status).toBe(400);
    expect((await readApi(tooLong)).errors).toEqual({ material: ["Material must be at most 80 characters"] });

    const notText = await run(
      addApi,
      jsonRequest("/api/admin/products/add", { json: { ...tee, material: 42 }, cookie: callers.admin }),
    );
    expect(notText.status).toBe(400);
    expect((await readApi(notText)).errors).toEqual({ material: ["Material must be text"] });
    expect(await getDb().models.Product.count()).toBe(0);

    const exactly80 = await run(
      addApi,
      jsonRequest("/api/admin/products/add", {
        json: { ...tee, material: "x".repeat(80) },
        cookie: callers.admin,
      }),
    );
    expect(exactly80.status).toBe(201);
  });

  it("is documented in the OpenAPI document's Product and in the add and edit bodies", () => {
    const document = getOpenApiDocument() as unknown as {
      paths: Record<
        string,
        Record<string, { requestBody: { content: Record<string, { schema: unknown }> } }>
      >;
      components: { schemas: Record<string, { properties: Record<string, unknown> }> };
    };
    expect(document.components.schemas.Product!.properties.material).toMatchObject({
      type: ["string", "null"],
    });
    const textUpTo80 = {
      anyOf: expect.arrayContaining([{ type: "string", maxLength: 80 }, { type: "null" }]),
    };
    const body = (path: string, method: string) =>
      document.paths[path]![method]!.requestBody.content["application/json"]!.schema as {
        properties: Record<string, unknown>;
      };
    expect(body("/api/admin/products/add", "post").properties.material).toMatchObject(textUpTo80);
    expect(body("/api/admin/products/edit/{id}", "put").properties.material).toMatchObject(textUpTo80);
  });
});

describe("a product's material in the admin form (a plain form post, as without JavaScript)", () => {
  it("is saved from the form, shown in the edit panel, and refused with a field error when too long", async () => {
    const product = await createProductRow({ title: "Form Tee", price: "40.00" });
    const fields = {
      intent: "update",
      id: product.id,
      image: product.image,
      title: "Form Tee",
      description: "Changed",
      category: "men",
      brand: "nike",
      price: "40",
      salePrice: "0",
      totalStock: "8",
    };
    const saved = await run(
      adminProductsAction,
      multipartRequest(
        `/admin/products?edit=${product.id}`,
        { ...fields, material: "Merino wool" },
        callers.admin,
      ),
    );
    expect(saved.status).toBe(302);
    expect(await storedMaterial(product.id)).toBe("Merino wool");

    const panel = await callRoute(adminProductsLoader, `/admin/products?edit=${product.id}`, {
      cookie: callers.admin,
    });
    const data = await panel.json();
    expect(data.editing).toMatchObject({ _id: product.id, material: "Merino wool" });

    const refused = await run(
      adminProductsAction,
      multipartRequest(
        `/admin/products?edit=${product.id}`,
        { ...fields, material: "y".repeat(81) },
        callers.admin,
      ),
    );
    expect(refused.status).toBe(400);
    const body = (await refused.json()) as { result: { error: Record<string, string[]> } };
    expect(body.result.error.material).toEqual(["Material must be at most 80 characters"]);
    expect(await storedMaterial(product.id)).toBe("Merino wool");
  });
});

describe("a product's material on the storefront", () => {
  it("comes with the product page's and the listing dialog's details", async () => {
    const product = await createProductRow({ title: "Canvas Tote" });
    await getDb().models.Product.update({ material: "Recycled canvas" }, { where: { id: product.id } });

    const page = await callRoute(productLoader, `/shop/product/${product.id}`, {
      cookie: callers.shopper,
      params: { id: product.id },
    });
    expect((await page.json()).product).toMatchObject({ material: "Recycled canvas" });

    const dialog = await callRoute(listingLoader, `/shop/listing?product=${product.id}`, {
      cookie: callers.shopper,
    });
    expect((await dialog.json()).details).toMatchObject({ _id: product.id, material: "Recycled canvas" });
  });
});
