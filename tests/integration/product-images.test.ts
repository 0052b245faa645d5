import { QueryTypes } from "sequelize";
import { beforeEach, describe, expect, it } from "vitest";
import { loader as productApi } from "../../app/routes/api.shop.products.get.$id";
import { getProduct } from "../../app/services/catalog.server";
import { getDb } from "../../app/models/db.server";
import { resetDatabase } from "../support/database";
import { callRoute } from "../support/requests";
import { createProduct } from "../support/storefront";

/** API.md "Product images": a product's gallery, its first picture being the spec's `image`. */

beforeEach(resetDatabase);

const UPLOAD = "/uploads/0b9a3c1e-7a51-4d41-9d39-7c5f0e3a2b10.jpg";
const SECOND = "/uploads/1c9a3c1e-7a51-4d41-9d39-7c5f0e3a2b11.webp";

async function addPicture(
  productId: string,
  position: number,
  url: string,
  extra: Record<string, unknown> = {},
) {
  await getDb().sequelize.query(
    `INSERT INTO product_images (product_id, position, url, alt, colour, width, height)
     VALUES (:productId, :position, :url, :alt, :colour, :width, :height)`,
    {
      replacements: { productId, position, url, alt: "", colour: null, width: null, height: null, ...extra },
    },
  );
}

async function imageColumn(productId: string): Promise<string> {
  const [row] = await getDb().sequelize.query<{ image: string }>(
    `SELECT image FROM products WHERE id = :productId`,
    {
      replacements: { productId },
      type: QueryTypes.SELECT,
    },
  );
  return row!.image;
}

describe("a product's pictures", () => {
  it("are read in order with their alt text, colour and the upload's size", async () => {
    const product = await createProduct();
    await getDb().sequelize.query(
      `INSERT INTO uploaded_images (key, width, height, content_type, widths)
       VALUES ('0b9a3c1e-7a51-4d41-9d39-7c5f0e3a2b10.jpg', 2400, 3200, 'image/jpeg', '{160,320,2400}')`,
    );
    await addPicture(product.id, 1, SECOND, { alt: "Back", colour: "black", width: 800, height: 1000 });
    await addPicture(product.id, 0, UPLOAD, { alt: "Front" });

    const json = (await getProduct(product.id))!;
    expect(json.images).toEqual([
      { url: UPLOAD, alt: "Front", width: 2400, height: 3200, colour: null },
      { url: SECOND, alt: "Back", width: 800, height: 1000, colour: "black" },
    ]);
    expect(json.image).toBe(UPLOAD);
  });

  it("keep the product's image on the first picture, also after a reorder in one transaction", async () => {
    const product = await createProduct();
    await addPicture(product.id, 0, UPLOAD);
    await addPicture(product.id, 1, SECOND);
    expect(await imageColumn(product.id)).toBe(UPLOAD);

    await getDb().sequelize.transaction(async (transaction) => {
      await getDb().sequelize.query(
        `UPDATE product_images SET position = CASE position WHEN 0 THEN 1 ELSE 0 END WHERE product_id = :id`,
        { replacements: { id: product.id }, transaction },
      );
    });
    expect(await imageColumn(product.id)).toBe(SECOND);

    await getDb().sequelize.query(`DELETE FROM product_images WHERE url = :url`, {
      replacements: { url: SECOND },
    });
    await getDb().sequelize.query(`UPDATE product_images SET position = 0 WHERE product_id = :id`, {
      replacements: { id: product.id },
    });
    expect(await imageColumn(product.id)).toBe(UPLOAD);
  });

  it("are at most eight, each position once", async () => {
    const product = await createProduct();
    await expect(addPicture(product.id, 8, UPLOAD)).rejects.toThrow();
    await addPicture(product.id, 0, UPLOAD);
    await expect(addPicture(product.id, 0, SECOND)).rejects.toMatchObject({
      parent: { constraint: "product_images_position_key" },
    });
  });

  it("are absolute URLs in the API, beside the spec's image", async () => {
    const product = await createProduct();
    await addPicture(product.id, 0, UPLOAD, { alt: "Front" });
    await addPicture(product.id, 1, SECOND);
    const body = await (
      await callRoute(productApi, `/api/shop/products/get/${product.id}`, { params: { id: product.id } })
    ).json();
    expect(body.data.image).toMatch(new RegExp(`^https?://[^/]+${UPLOAD}$`));
    expect(body.data.images.map((picture: { url: string }) => picture.url)).toEqual([
      body.data.image,
      expect.stringMatching(new RegExp(`^https?://[^/]+${SECOND}$`)),
    ]);
  });
});
