import { existsSync } from "node:fs";
import path from "node:path";
import { QueryTypes } from "sequelize";
import { beforeEach, describe, expect, it } from "vitest";
import { getConfig } from "../../app/lib/server/config.server";
import { getDb } from "../../app/models/db.server";
import { action as adminProductsAction } from "../../app/routes/admin.products";
import { action as addApi } from "../../app/routes/api.admin.products.add";
import { action as editApi } from "../../app/routes/api.admin.products.edit.$id";
import { createProduct, deleteProduct, updateProduct } from "../../app/services/product-writer.server";
import { getAdminProduct } from "../../app/services/admin-catalog.server";
import { storeImage } from "../../app/services/uploads.server";
import { MAX_PRODUCT_IMAGES } from "../../app/lib/shared/product";
import { MAX_UPLOAD_BYTES } from "../../app/lib/shared/uploads";
import { PICTURES_BODY_LIMIT_BYTES, UPLOAD_BODY_LIMIT_BYTES } from "../../app/lib/server/body-limits.server";
import { resetDatabase } from "../support/database";
import {
  createCallers,
  createOrderRow,
  file,
  multipartRequest,
  jsonRequest,
  JPEG_BYTES,
  PNG_BYTES,
  readApi,
  run,
  type Callers,
  uploaded,
} from "./admin-support";

/** API.md "Product images", the write side: admins add, edit and remove a product's pictures. */

const TEE = "/images/products/dri-fit-training-tee.svg";
const POLO = "/images/products/essentials-pique-polo-shirt.svg";

const base = {
  title: "Gallery Tee",
  description: "A tee with several pictures",
  category: "men",
  brand: "nike",
  price: 25,
};
const inColours = {
  ...base,
  variants: [
    { size: "M", colour: "black", totalStock: 3 },
    { size: "M", colour: "white", totalStock: 4 },
  ],
};

async function upload(name = "a.png"): Promise<string> {
  return (await storeImage(uploaded(PNG_BYTES, name, "image/png"))).url;
}

function stored(url: string): boolean {
  return existsSync(path.join(getConfig().uploadDir, url.replace("/uploads/", "")));
}

async function galleryRows(productId: string) {
  return getDb().sequelize.query<{ position: number; url: string; alt: string; colour: string | null }>(
    `SELECT position, url, alt, colour FROM product_images WHERE product_id = :productId ORDER BY position`,
    { replacements: { productId }, type: QueryTypes.SELECT },
  );
}

async function imageColumn(productId: string): Promise<string> {
  const [row] = await getDb().sequelize.query<{ image: string }>(
    `SELECT image FROM products WHERE id = :productId`,
    { replacements: { productId }, type: QueryTypes.SELECT },
  );
  return row!.image;
}

/** The 400 a promise rejects with: its message and field errors. */
async function refusal(promise: Promise<unknown>) {
  const error = (await promise.then(
    () => null,
    (thrown: unknown) => thrown,
  )) as { status: number; message: string; fieldErrors?: Record<string, string[]> } | null;
  expect(error, "the input should have been refused").not.toBeNull();
  return error!;
}

let callers: Callers;
beforeEach(async () => {
  await resetDatabase();
  callers = await createCallers();
});

describe("adding a product with pictures", () => {
  it("keeps them in order with their alt text and colour; the first is the product's image", async () => {
    const photo = await upload();
    const product = await createProduct({
      ...inColours,
      images: [
        { url: photo, alt: "The tee in black, from the front", colour: "black" },
        { url: TEE, alt: "The drawing", colour: "WHITE" },
      ],
    });
    expect(product.image).toBe(photo);
    expect(product.images).toEqual([
      { url: photo, alt: "The tee in black, from the front", width: 1, height: 1, colour: "black" },
      // A drawing of the shop: its declared size.
      { url: TEE, alt: "The drawing", width: 600, height: 600, colour: "white" },
    ]);
    expect(await imageColumn(product._id)).toBe(photo);
  });

  it("makes `image` alone a one-picture gallery", async () => {
    const product = await createProduct({ ...base, image: TEE, totalStock: 2 });
    expect(product.images).toEqual([{ url: TEE, alt: "", width: 600, height: 600, colour: null }]);
    expect(await galleryRows(product._id)).toHaveLength(1);
  });

  it("takes this shop's absolute URLs as the paths it keeps", async () => {
    const photo = await upload();
    const product = await createProduct({
      ...base,
      totalStock: 1,
      images: [{ url: `${getConfig().appUrl}${photo}`, alt: "" }],
    });
    expect((await galleryRows(product._id))[0]!.url).toBe(photo);
  });
});

describe("every refused gallery is a 400 that names the picture", () => {
  const tooLong = "x".repeat(201);
  it.each([
    ["no pictures", [], "images", "Give between 1 and 8 pictures"],
    [
      "nine pictures",
      Array.from({ length: 9 }, () => ({ url: TEE, alt: "" })),
      "images",
      "Give between 1 and 8",
    ],
    ["not a list", "tee.svg", "images", "Give between 1 and 8 pictures"],
    [
      "a picture that is not an object",
      [{ url: TEE, alt: "" }, "x"],
      "images.1",
      "Picture 2: give it as an object",
    ],
    ["no URL", [{ alt: "Front" }], "images.0.url", "Picture 1: the URL must be text"],
    ["an empty URL", [{ url: " ", alt: "" }], "images.0.url", "Picture 1: upload the picture"],
    [
      "a URL that is no picture",
      [{ url: TEE, alt: "" }, { url: "javascript:alert(1)" }],
      "images.1.url",
      "Picture 2: the URL must be a picture",
    ],
    [
      "an alt text too long",
      [{ url: TEE, alt: tooLong }],
      "images.0.alt",
      "Picture 1: the alt text must be at most 200 characters",
    ],
    [
      "an alt text with a NUL",
      [{ url: TEE, alt: "a\u0000b" }],
      "images.0.alt",
      "Picture 1: the alt text cannot contain control characters",
    ],
    [
      "the same picture twice",
      [
        { url: TEE, alt: "" },
        { url: POLO, alt: "" },
        { url: TEE, alt: "" },
      ],
      "images.2.url",
      "Picture 3: the same picture as picture 1",
    ],
    [
      "another site's picture",
      [{ url: "https://example.com/tee.jpg", alt: "" }],
      "images.0.url",
      "Picture 1: this picture was not uploaded to the shop",
    ],
    [
      "a drawing the shop does not have",
      [{ url: "/images/products/no-such-drawing.svg", alt: "" }],
      "images.0.url",
      "Picture 1: this picture was not uploaded to the shop",
    ],
    [
      "an upload that is not there",
      [{ url: "/uploads/0b9a3c1e-7a51-4d41-9d39-7c5f0e3a2b10.jpg", alt: "" }],
      "images.0.url",
      "Picture 1: this picture was not uploaded to the shop",
    ],
    [
      "a colour on a product without colours",
      [{ url: TEE, alt: "", colour: "black" }],
      "images.0.colour",
      "Picture 1: this product comes in no colours",
    ],
  ])("refuses %s", async (_case, images, key, message) => {
    const error = await refusal(createProduct({ ...base, totalStock: 1, images }));
    expect(error.status).toBe(400);
    expect(error.message).toContain(message);
    expect(error.fieldErrors?.[key]?.[0]).toContain(message);
    expect(Object.keys(error.fieldErrors ?? {})).not.toContain("image");
    expect(await getDb().models.Product.count()).toBe(0);
  });

  it("refuses a colour that is not one of the product's, naming its colours", async () => {
    const error = await refusal(
      createProduct({
        ...inColours,
        images: [
          { url: TEE, alt: "" },
          { url: POLO, alt: "", colour: "red" },
        ],
      }),
    );
    expect(error.status).toBe(400);
    expect(error.fieldErrors?.["images.1.colour"]).toEqual([
      "Picture 2: Red is not one of this product's colours (Black, White)",
    ]);
  });

  it("checks an edit's colours against the product's variants when it sends none", async () => {
    const product = await createProduct({ ...inColours, image: TEE });
    const error = await refusal(
      updateProduct(product._id, { images: [{ url: TEE, alt: "", colour: "navy" }] }),
    );
    expect(error.fieldErrors?.["images.0.colour"]?.[0]).toMatch(/^Picture 1: Navy is not one/);
    const accepted = await updateProduct(product._id, { images: [{ url: TEE, alt: "", colour: "white" }] });
    expect(accepted.images[0]!.colour).toBe("white");
  });

  it("answers the API's 400 with the picture's message and its field", async () => {
    const response = await run(
      addApi,
      jsonRequest("/api/admin/products/add", {
        json: {
          ...base,
          totalStock: 1,
          images: [
            { url: TEE, alt: "" },
            { url: TEE, alt: "Again" },
          ],
        },
        cookie: callers.admin,
      }),
    );
    expect(response.status).toBe(400);
    const body = await readApi(response);
    expect(body.message).toBe("Picture 2: the same picture as picture 1");
    expect(body.errors?.["images.1.url"]).toEqual(["Picture 2: the same picture as picture 1"]);
  });
});

describe("editing a product's pictures", () => {
  it("replaces the gallery with the list; the API answers it with absolute URLs", async () => {
    const product = await createProduct({ ...inColours, image: TEE });
    const photo = await upload();
    const response = await run(
      editApi,
      jsonRequest(`/api/admin/products/edit/${product._id}`, {
        method: "PUT",
        json: {
          images: [
            { url: POLO, alt: "Polo", colour: null },
            { url: photo, alt: "Photo", colour: "black" },
          ],
        },
        cookie: callers.admin,
      }),
      { id: product._id },
    );
    expect(response.status).toBe(200);
    const body = (await readApi(response)) as { data: { image: string; images: { url: string }[] } };
    expect(body.data.image).toBe(`${getConfig().appUrl}${POLO}`);
    expect(body.data.images.map((picture) => picture.url)).toEqual([
      `${getConfig().appUrl}${POLO}`,
      `${getConfig().appUrl}${photo}`,
    ]);
    expect(await galleryRows(product._id)).toEqual([
      { position: 0, url: POLO, alt: "Polo", colour: null },
      { position: 1, url: photo, alt: "Photo", colour: "black" },
    ]);
    expect(await imageColumn(product._id)).toBe(POLO);
    // The change is on record: the gallery before and after, and the version raised.
    const [entry] = await getDb().sequelize.query<{ changes: Record<string, unknown> }>(
      `SELECT changes FROM audit_log WHERE entity_id = :id AND action = 'update' ORDER BY seq DESC LIMIT 1`,
      { replacements: { id: product._id }, type: QueryTypes.SELECT },
    );
    expect(entry!.changes.images).toEqual([
      [{ url: TEE, alt: "", colour: null }],
      [
        { url: POLO, alt: "Polo", colour: null },
        { url: photo, alt: "Photo", colour: "black" },
      ],
    ]);
  });

  it("without images, an image that differs replaces the first picture and keeps the others", async () => {
    const first = await upload("first.png");
    const second = await upload("second.png");
    const product = await createProduct({
      ...inColours,
      images: [
        { url: first, alt: "First" },
        { url: second, alt: "Second", colour: "black" },
        { url: TEE, alt: "Drawing" },
      ],
    });

    // A client of the spec resends the product as it read it: nothing of the gallery changes.
    const resent = await updateProduct(product._id, { ...base, image: first, title: "Renamed" });
    expect(resent.images.map((picture) => picture.alt)).toEqual(["First", "Second", "Drawing"]);

    const changed = await updateProduct(product._id, { image: POLO });
    expect(changed.image).toBe(POLO);
    expect(changed.images).toEqual([
      { url: POLO, alt: "", width: 600, height: 600, colour: null },
      { url: second, alt: "Second", width: 1, height: 1, colour: "black" },
      { url: TEE, alt: "Drawing", width: 600, height: 600, colour: null },
    ]);
    // The replaced upload shows nowhere any more: it left the storage; the kept one stays.
    expect(stored(first)).toBe(false);
    expect(stored(second)).toBe(true);
  });

  it("without images, an image that is a later picture moves it first instead of showing it twice", async () => {
    const product = await createProduct({
      ...base,
      totalStock: 1,
      images: [
        { url: TEE, alt: "Tee" },
        { url: POLO, alt: "Polo" },
      ],
    });
    const changed = await updateProduct(product._id, { image: POLO });
    expect(changed.images.map((picture) => picture.url)).toEqual([POLO]);
  });

  it("lets go of a picture's colour when the product no longer has it", async () => {
    const product = await createProduct({
      ...inColours,
      images: [
        { url: TEE, alt: "" },
        { url: POLO, alt: "", colour: "white" },
      ],
    });
    const changed = await updateProduct(product._id, {
      variants: [{ size: "M", colour: "black", totalStock: 3 }],
    });
    expect(changed.images.map((picture) => picture.colour)).toEqual([null, null]);
  });

  it("deletes a removed upload from the storage only when nothing else shows it", async () => {
    const shared = await upload("shared.png");
    const ordered = await upload("ordered.png");
    const lonely = await upload("lonely.png");
    const product = await createProduct({
      ...base,
      totalStock: 1,
      images: [
        { url: TEE, alt: "" },
        { url: shared, alt: "" },
        { url: ordered, alt: "" },
        { url: lonely, alt: "" },
      ],
    });
    // Another product's second picture, and an order's snapshot.
    await createProduct({
      ...base,
      title: "Other",
      totalStock: 1,
      images: [
        { url: POLO, alt: "" },
        { url: shared, alt: "" },
      ],
    });
    await createOrderRow({
      userId: callers.shopperId,
      items: [{ productId: null, title: "Old", image: ordered, price: "10.00", quantity: 1 }],
    });

    await updateProduct(product._id, { images: [{ url: TEE, alt: "" }] });
    expect(stored(lonely)).toBe(false);
    expect(stored(shared)).toBe(true);
    expect(stored(ordered)).toBe(true);
  });

  it("deleting a product deletes every picture of its that nothing else shows", async () => {
    const first = await upload("first.png");
    const second = await upload("second.png");
    const product = await createProduct({
      ...base,
      totalStock: 1,
      images: [
        { url: first, alt: "" },
        { url: second, alt: "" },
      ],
    });
    await deleteProduct(product._id);
    expect(stored(first)).toBe(false);
    expect(stored(second)).toBe(false);
  });

  it("two admins saving a gallery at once leave one of their lists whole, its first picture the image", async () => {
    const photos = await Promise.all(["a.png", "b.png", "c.png"].map((name) => upload(name)));
    const product = await createProduct({ ...base, totalStock: 1, image: TEE });
    // Another product shows the photos too, so that a list that loses the race never names a deleted upload.
    await createProduct({
      ...base,
      title: "Keeps the photos",
      totalStock: 1,
      images: photos.map((url) => ({ url, alt: "" })),
    });
    const mine = [
      { url: photos[0]!, alt: "Mine 1" },
      { url: photos[1]!, alt: "Mine 2" },
    ];
    const theirs = [
      { url: photos[2]!, alt: "Theirs 1" },
      { url: POLO, alt: "Theirs 2" },
      { url: photos[0]!, alt: "Theirs 3" },
    ];
    for (let round = 0; round < 3; round++) {
      await Promise.all([
        updateProduct(product._id, { images: mine }),
        updateProduct(product._id, { images: theirs }),
      ]);
      const rows = await galleryRows(product._id);
      const urls = rows.map((row) => row.url);
      expect([mine.map((p) => p.url), theirs.map((p) => p.url)]).toContainEqual(urls);
      expect(rows.map((row) => row.position)).toEqual(urls.map((_, index) => index));
      expect(await imageColumn(product._id)).toBe(urls[0]);
    }
    const final = await getAdminProduct(product._id);
    expect(final.image).toBe(final.images[0]!.url);
  });
});

describe("the products page's Pictures without JavaScript", () => {
  it("lets the server take eight full-size pictures in one post of the product form, and only there", () => {
    expect(PICTURES_BODY_LIMIT_BYTES).toBeGreaterThan(MAX_PRODUCT_IMAGES * MAX_UPLOAD_BYTES);
    expect(UPLOAD_BODY_LIMIT_BYTES).toBeLessThan(2 * MAX_UPLOAD_BYTES);
  });

  const formFields = {
    title: "Form Tee",
    description: "Posted by the page",
    category: "men",
    brand: "nike",
    price: "20",
    "variants[0].size": "M",
    "variants[0].colour": "black",
    "variants[0].totalStock": "2",
  };

  /** A multipart post with several files in my_file, as a browser sends `<input type=file multiple>`. */
  function post(fields: Record<string, string>, files: File[] = [], query = "?panel=new") {
    const request = multipartRequest(`/admin/products${query}`, fields, callers.admin);
    return request.formData().then((body) => {
      for (const picture of files) body.append("my_file", picture);
      return run(
        adminProductsAction,
        new Request(request.url, { method: "POST", body, headers: { Cookie: callers.admin } }),
      );
    });
  }

  async function replyOf(response: Response) {
    return (
      (await response.json()) as {
        result: {
          error?: Record<string, string[]>;
          initialValue: { images?: { url: string; alt?: string }[] };
        };
      }
    ).result;
  }

  it("adds a product with several files chosen at once, in their order", async () => {
    const response = await post({ ...formFields, intent: "create" }, [
      file(PNG_BYTES, "one.png", "image/png"),
      file(JPEG_BYTES, "two.jpg", "image/jpeg"),
    ]);
    expect(response.status).toBe(302);
    const [row] = await getDb().sequelize.query<{ id: string }>(`SELECT id FROM products`, {
      type: QueryTypes.SELECT,
    });
    const urls = (await galleryRows(row!.id)).map((picture) => picture.url);
    expect(urls).toEqual([expect.stringMatching(/\.png$/), expect.stringMatching(/\.jpg$/)]);
    expect(await imageColumn(row!.id)).toBe(urls[0]);
  });

  it("Upload pictures stores the files and brings the form back with them, saving nothing", async () => {
    const response = await post(
      { ...formFields, intent: "pictures-upload", "images[0].url": TEE, "images[0].alt": "Drawing" },
      [file(PNG_BYTES, "one.png", "image/png")],
    );
    expect(response.status).toBe(200);
    const result = await replyOf(response);
    expect(result.initialValue.images).toEqual([
      { url: TEE, alt: "Drawing", colour: "" },
      { url: expect.stringMatching(/^\/uploads\/.+\.png$/), alt: "", colour: "" },
    ]);
    expect(stored(result.initialValue.images![1]!.url)).toBe(true);
    expect(await getDb().models.Product.count()).toBe(0);
  });

  it("Move up, Move down and Remove change the list and save nothing", async () => {
    const pictures = {
      "images[0].url": TEE,
      "images[0].alt": "Tee",
      "images[1].url": POLO,
      "images[1].alt": "Polo",
      "images[1].colour": "black",
    };
    const up = await replyOf(await post({ ...formFields, ...pictures, intent: "picture-up-1" }));
    expect(up.initialValue.images).toEqual([
      { url: POLO, alt: "Polo", colour: "black" },
      { url: TEE, alt: "Tee", colour: "" },
    ]);
    const down = await replyOf(await post({ ...formFields, ...pictures, intent: "picture-down-0" }));
    expect(down.initialValue.images!.map((picture) => picture.url)).toEqual([POLO, TEE]);
    const removed = await replyOf(await post({ ...formFields, ...pictures, intent: "picture-remove-0" }));
    expect(removed.initialValue.images).toEqual([{ url: POLO, alt: "Polo", colour: "black" }]);
    expect(await getDb().models.Product.count()).toBe(0);
  });

  it("shows a picture's error beside it (its field), keeping the list", async () => {
    const response = await post({
      ...formFields,
      intent: "create",
      "images[0].url": TEE,
      "images[1].url": POLO,
      "images[1].colour": "red",
    });
    expect(response.status).toBe(400);
    const result = await replyOf(response);
    expect(result.error?.["images[1].colour"]).toEqual([
      "Picture 2: Red is not one of this product's colours (Black)",
    ]);
    expect(result.initialValue.images!.map((picture) => picture.url)).toEqual([TEE, POLO]);
  });

  it("refuses more than eight pictures with the files", async () => {
    const eight = Object.fromEntries(
      Array.from({ length: 8 }, (_, index) => [`images[${index}].url`, `/uploads/${index}.png`]),
    );
    const response = await post({ ...formFields, intent: "create", ...eight }, [
      file(PNG_BYTES, "nine.png", "image/png"),
    ]);
    expect(response.status).toBe(400);
    expect((await replyOf(response)).error?.images?.[0]).toMatch(/at most 8 pictures/);
  });
});
