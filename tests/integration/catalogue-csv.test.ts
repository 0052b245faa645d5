import { parse } from "csv-parse/sync";
import { QueryTypes } from "sequelize";
import { beforeEach, describe, expect, it } from "vitest";
import { getConfig } from "../../app/lib/server/config.server";
import { CATALOGUE_COLUMNS, MAX_IMPORT_BYTES } from "../../app/lib/shared/catalogue-csv";
import { IMPORT_BODY_LIMIT_BYTES, UPLOAD_BODY_LIMIT_BYTES } from "../../app/lib/server/body-limits.server";
import * as uploadApi from "../../app/routes/api.admin.products.upload-image";
import { middleware as importPageMiddleware } from "../../app/routes/admin.products_.import";
import { getDb } from "../../app/models/db.server";
import { loader as exportApi } from "../../app/routes/api.admin.products.export";
import { action as importApi } from "../../app/routes/api.admin.products.import";
import { action as importPage } from "../../app/routes/admin.products_.import";
import { loader as listingApi } from "../../app/routes/api.shop.products.get";
import { createProduct, updateProduct } from "../../app/services/product-writer.server";
import { getAdminProduct, listAdminProducts } from "../../app/services/admin-catalog.server";
import { resetDatabase } from "../support/database";
import { callRoute } from "../support/requests";
import { createCallers, file, jsonRequest, multipartRequest, run, type Callers } from "./admin-support";

const IMAGE = "/images/products/classic-tee.svg";
const HEADER = CATALOGUE_COLUMNS.join(",");

let callers: Callers;
beforeEach(async () => {
  await resetDatabase();
  callers = await createCallers();
});

type Row = Record<string, string>;

async function exportCsv(search = ""): Promise<{ text: string; rows: Row[]; response: Response }> {
  const response = await run(
    exportApi,
    jsonRequest(`/api/admin/products/export${search ? `?search=${encodeURIComponent(search)}` : ""}`, {
      cookie: callers.admin,
    }),
  );
  const bytes = new Uint8Array(await response.arrayBuffer());
  // Decoded with its byte-order mark kept, to see it is there.
  const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
  const rows = parse(text, { bom: true, columns: true }) as Row[];
  return { text, rows, response };
}

async function importCsv(text: string | Uint8Array, cookie = callers.admin) {
  const response = await run(
    importApi,
    multipartRequest(
      "/api/admin/products/import",
      { my_file: file(text, "catalogue.csv", "text/csv") },
      cookie,
    ),
  );
  const body = (await response.json()) as {
    success: boolean;
    message: string;
    created?: number;
    updated?: number;
    errors?: { row: number; column: string; message: string }[];
  };
  return { status: response.status, body };
}

/** A CSV text of `rows` (objects by column name) under the full header; cells quoted. */
function csvOf(rows: Partial<Row>[], columns: readonly string[] = CATALOGUE_COLUMNS): string {
  const quote = (value: string) => `"${value.replace(/"/g, '""')}"`;
  return [
    columns.join(","),
    ...rows.map((row) => columns.map((column) => quote(row[column] ?? "")).join(",")),
  ].join("\r\n");
}

const newRow = (overrides: Partial<Row> = {}): Row => ({
  productId: "",
  sku: "",
  title: "Linen Shirt",
  description: "Cool linen",
  category: "men",
  brand: "zara",
  material: "100% linen",
  size: "M",
  colour: "white",
  price: "49.90",
  salePrice: "",
  totalStock: "5",
  image: IMAGE,
  ...overrides,
});

async function teeWithSizes() {
  return createProduct({
    image: IMAGE,
    title: "Classic Tee",
    description: "Soft cotton tee",
    category: "men",
    brand: "nike",
    material: "Cotton",
    price: 25,
    salePrice: 0,
    variants: [
      { sku: "TEE-S", size: "S", colour: "black", totalStock: 3 },
      { sku: "TEE-M", size: "M", colour: "black", totalStock: 4, price: 30, salePrice: 27 },
      { sku: "TEE-L", size: "L", colour: "black", totalStock: 0 },
    ],
  });
}

async function snapshot() {
  return getDb().sequelize.query(
    `SELECT p.id, p.title, p.description, p.category, p.brand, p.material, p.image, p.price::text,
            p.sale_price::text, p.total_stock, p.effective_price::text,
            json_agg(json_build_object('sku', v.sku, 'size', v.size, 'colour', v.colour, 'stock', v.total_stock,
              'price', coalesce(v.price, p.price)::text, 'sale', (CASE WHEN v.price IS NULL THEN p.sale_price ELSE v.sale_price END)::text,
              'position', v.position) ORDER BY v.id) AS variants
       FROM products p JOIN product_variants v ON v.product_id = p.id GROUP BY p.id ORDER BY p.id`,
    { type: QueryTypes.SELECT },
  );
}

describe("GET /api/admin/products/export", () => {
  it("answers text/csv with the header row and one row per variant", async () => {
    const tee = await teeWithSizes();
    const { response, text, rows } = await exportCsv();
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(text.charCodeAt(0)).toBe(0xfeff);
    expect(text.slice(1).split("\r\n")[0]).toBe(HEADER);
    for (const column of [
      "productId",
      "sku",
      "title",
      "description",
      "category",
      "brand",
      "size",
      "colour",
      "price",
      "salePrice",
      "totalStock",
      "image",
      "material",
    ])
      expect(CATALOGUE_COLUMNS).toContain(column);
    expect(rows).toEqual([
      expect.objectContaining({
        productId: tee._id,
        sku: "TEE-S",
        size: "S",
        colour: "black",
        price: "25.00",
        salePrice: "",
        totalStock: "3",
      }),
      expect.objectContaining({
        productId: tee._id,
        sku: "TEE-M",
        size: "M",
        price: "30.00",
        salePrice: "27.00",
        totalStock: "4",
      }),
      expect.objectContaining({
        productId: tee._id,
        sku: "TEE-L",
        size: "L",
        price: "25.00",
        totalStock: "0",
      }),
    ]);
    expect(rows[0]).toMatchObject({
      title: "Classic Tee",
      category: "men",
      brand: "nike",
      material: "Cotton",
      image: `${getConfig().appUrl}${IMAGE}`,
    });
  });

  it("carries the admin list's search: title, brand or SKU", async () => {
    await teeWithSizes();
    await createProduct({ ...newRow({ title: "Denim Jacket", brand: "levi" }), totalStock: 2 });
    expect((await exportCsv("TEE-M")).rows.map((row) => row.sku)).toEqual(["TEE-S", "TEE-M", "TEE-L"]);
    expect(new Set((await exportCsv("levi's")).rows.map((row) => row.title))).toEqual(
      new Set(["Denim Jacket"]),
    );
    expect((await exportCsv("nothing like it")).rows).toEqual([]);
  });

  it("refuses shoppers", async () => {
    const response = await run(
      exportApi,
      jsonRequest("/api/admin/products/export", { cookie: callers.shopper }),
    );
    expect(response.status).toBe(403);
  });
});

describe("the admin list's search", () => {
  it("finds products by title, brand (key or label) and any variant's SKU, with paging kept", async () => {
    const tee = await teeWithSizes();
    const jacket = await createProduct({
      ...newRow({ title: "Denim Jacket", brand: "levi" }),
      totalStock: 2,
    });
    const ids = async (search: string) =>
      (await listAdminProducts({ page: 1, limit: 24, search })).products.map((product) => product._id);
    expect(await ids("classic")).toEqual([tee._id]);
    expect(await ids("tee-l")).toEqual([tee._id]);
    expect(await ids("Levi's")).toEqual([jacket._id]);
    expect(await ids("NIKE")).toEqual([tee._id]);
    expect(await ids("%")).toEqual([]);
    const past = await listAdminProducts({ page: 5, limit: 24, search: "tee" });
    expect(past.products).toEqual([]);
    expect(past.pagination.total).toBe(1);
  });
});

describe("POST /api/admin/products/import", () => {
  it("a title that starts with = is exported neutralised and imported back as the original text", async () => {
    const tee = await teeWithSizes();
    await updateProduct(tee._id, { title: "=SUM(A1:A2) tee" });
    const { text, rows } = await exportCsv();
    expect(rows[0]!.title).toBe("'=SUM(A1:A2) tee");
    expect(text).not.toMatch(/(^|,)=SUM/m);
    const { status, body } = await importCsv(text);
    expect(status).toBe(200);
    expect((await getAdminProduct(tee._id)).title).toBe("=SUM(A1:A2) tee");
    expect(body).toMatchObject({ created: 0, updated: 3 });
  });

  it("export then import changes nothing: every row updates its variant with the same values", async () => {
    await teeWithSizes();
    await createProduct({ ...newRow({ title: "Cap", category: "accessories", size: "" }), totalStock: 7 });
    const before = await snapshot();
    const { text } = await exportCsv();
    const { status, body } = await importCsv(text);
    expect(status).toBe(200);
    expect(body).toEqual({ success: true, message: "Catalogue imported", created: 0, updated: 4 });
    expect(await snapshot()).toEqual(before);
  });

  it("updates the variant a SKU matches and creates the rest: new variants and new products", async () => {
    const tee = await teeWithSizes();
    const csv = csvOf([
      newRow({
        productId: tee._id,
        sku: "tee-s",
        title: "Classic Tee",
        description: "Soft cotton tee",
        brand: "nike",
        material: "Cotton",
        size: "S",
        colour: "black",
        price: "25.00",
        totalStock: "11",
      }),
      newRow({
        productId: tee._id,
        sku: "TEE-XL",
        title: "Classic Tee",
        description: "Soft cotton tee",
        brand: "nike",
        material: "Cotton",
        size: "XL",
        colour: "black",
        price: "25.00",
        totalStock: "2",
      }),
      newRow({ size: "M", sku: "LIN-M" }),
      newRow({ size: "L", sku: "" }),
    ]);
    const { status, body } = await importCsv(csv);
    expect(status).toBe(200);
    expect(body).toMatchObject({ created: 3, updated: 1 });
    const product = await getAdminProduct(tee._id);
    expect(product.variants.map((variant) => [variant.sku, variant.size, variant.totalStock])).toEqual([
      ["tee-s", "S", 11],
      ["TEE-M", "M", 4],
      ["TEE-L", "L", 0],
      ["TEE-XL", "XL", 2],
    ]);
    expect(product.totalStock).toBe(17);
    const linen = await listAdminProducts({ page: 1, limit: 24, search: "Linen Shirt" });
    expect(linen.products).toHaveLength(1);
    expect(linen.products[0]).toMatchObject({
      brand: "zara",
      material: "100% linen",
      price: 49.9,
      totalStock: 10,
    });
    expect(linen.products[0]!.variants.map((variant) => variant.size)).toEqual(["M", "L"]);
    expect(linen.products[0]!.variants[1]!.sku).toMatch(/^ZARA-\d+$/);
  });

  it("one bad row refuses the whole file, names each row, column and reason, and changes nothing", async () => {
    const tee = await teeWithSizes();
    const before = await snapshot();
    const rows = [
      newRow({
        productId: tee._id,
        sku: "TEE-S",
        title: "Renamed",
        description: "Soft cotton tee",
        brand: "nike",
        size: "S",
        colour: "black",
        price: "25.00",
        totalStock: "99",
      }),
      newRow({ sku: "A-1", size: "S" }),
      newRow({ sku: "A-2", size: "M" }),
      newRow({ sku: "A-3", size: "L" }),
      newRow({ sku: "A-4", size: "XL" }),
      newRow({ sku: "A-5", size: "XS", price: "-5" }), // row 7
      newRow({ title: "Scarf", sku: "B-1", category: "hats", size: "" }), // row 8
      newRow({ title: "Boots", sku: "C-1", category: "footwear", size: "M" }), // row 9
    ];
    const { status, body } = await importCsv(csvOf(rows));
    expect(status).toBe(422);
    expect(body.success).toBe(false);
    expect(body.errors).toEqual([
      { row: 7, column: "price", message: "Price must be greater than 0" },
      { row: 8, column: "category", message: expect.stringMatching(/^Choose a category: Men, Women/) },
      {
        row: 9,
        column: "size",
        message: expect.stringMatching(/^Choose a size of the Footwear scale: EU 36/),
      },
    ]);
    expect(await snapshot()).toEqual(before);
  });

  it("refuses an unknown column and a missing required one, naming them (row 1)", async () => {
    const unknown = await importCsv(csvOf([newRow({ colourway: "x" })], [...CATALOGUE_COLUMNS, "colourway"]));
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors).toEqual([
      { row: 1, column: "colourway", message: expect.stringContaining("Unknown column") },
    ]);
    const missing = await importCsv(
      csvOf(
        [newRow()],
        CATALOGUE_COLUMNS.filter((column) => column !== "price"),
      ),
    );
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual([{ row: 1, column: "price", message: "Column price is missing" }]);
    expect((await listAdminProducts({ page: 1, limit: 24 })).pagination.total).toBe(0);
  });

  it("takes the columns in any order and leaves optional ones out", async () => {
    const columns = ["image", "totalStock", "price", "brand", "category", "description", "title"];
    const { status, body } = await importCsv(csvOf([newRow({ title: "Plain" })], columns));
    expect(status).toBe(200);
    expect(body).toMatchObject({ created: 1, updated: 0 });
  });

  it("refuses rows of one product that disagree on its own fields, and a SKU given twice", async () => {
    const { status, body } = await importCsv(
      csvOf([
        newRow({ sku: "X-1" }),
        newRow({ sku: "X-2", size: "L", description: "Other" }),
        newRow({ sku: "x-1", title: "Else" }),
      ]),
    );
    expect(status).toBe(422);
    expect(body.errors).toEqual([
      {
        row: 3,
        column: "description",
        message: "Description differs from row 2: every row of one product gives the same",
      },
      { row: 4, column: "sku", message: "SKU x-1 is given twice (also in row 2)" },
    ]);
  });

  it("refuses a file that is not UTF-8 text (400), an empty one and a broken quote (422)", async () => {
    const latin1 = Uint8Array.from([...Buffer.from(`${HEADER}\r\n,,Caf`), 0xe9, ...Buffer.from(",x")]);
    expect((await importCsv(latin1)).status).toBe(400);
    expect((await importCsv(Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 1]))).status).toBe(400);
    const empty = await importCsv(HEADER);
    expect(empty.status).toBe(422);
    expect(empty.body.message).toMatch(/empty/);
    const broken = await importCsv(`${HEADER}\r\n"unclosed,`);
    expect(broken.status).toBe(422);
    expect(broken.body.errors![0]).toMatchObject({ row: 2, column: "" });
  });

  it("refuses more rows than the limit (422) and a file above 10 MB (413)", async () => {
    const row = csvOf([newRow()]).split("\r\n")[1]!;
    const tooMany = `${HEADER}\r\n${Array.from({ length: 20_001 }, () => row).join("\r\n")}`;
    const many = await importCsv(tooMany);
    expect(many.status).toBe(422);
    expect(many.body.errors).toEqual([
      { row: 20_002, column: "", message: expect.stringContaining("more than 20,000 rows") },
    ]);
    const huge = await importCsv(`${HEADER}\r\n${"x".repeat(10 * 1024 * 1024)}`);
    expect(huge.status).toBe(413);
  });

  it("lets the server take a file of up to 10 MB on the import paths only", async () => {
    expect(IMPORT_BODY_LIMIT_BYTES).toBeGreaterThan(MAX_IMPORT_BYTES);
    expect(UPLOAD_BODY_LIMIT_BYTES).toBeLessThan(MAX_IMPORT_BYTES);
    // The import page declares its bound in its middleware (a declared length above it is refused before it runs).
    expect(importPageMiddleware).toHaveLength(1);
    // An API module refuses a declared length above its own bound before it looks at the caller: 413, not 401.
    const declaring = (path: string, bytes: number) =>
      new Request(`http://localhost${path}`, {
        method: "POST",
        headers: { "Content-Length": String(bytes), "Content-Type": "multipart/form-data; boundary=x" },
        body: "--x--",
      });
    const statusOf = async (action: typeof importApi, path: string, bytes: number) =>
      (await run(action, declaring(path, bytes))).status;
    expect(await statusOf(importApi, "/api/admin/products/import", IMPORT_BODY_LIMIT_BYTES + 1)).toBe(413);
    expect(await statusOf(importApi, "/api/admin/products/import", IMPORT_BODY_LIMIT_BYTES)).toBe(401);
    const upload = "/api/admin/products/upload-image";
    expect(await statusOf(uploadApi.action, upload, UPLOAD_BODY_LIMIT_BYTES + 1)).toBe(413);
    expect(await statusOf(uploadApi.action, upload, UPLOAD_BODY_LIMIT_BYTES)).toBe(401);
  });

  it("refuses shoppers and a post without a file", async () => {
    expect((await importCsv(csvOf([newRow()]), callers.shopper)).status).toBe(403);
    const response = await run(
      importApi,
      multipartRequest("/api/admin/products/import", { other: "x" }, callers.admin),
    );
    expect(response.status).toBe(400);
  });
});

describe("an import on record", () => {
  const auditOf = () =>
    getDb().sequelize.query<{
      action: string;
      entity_id: string;
      actor_name: string;
      changes: Record<string, unknown>;
    }>(`SELECT action, entity_id, actor_name, changes FROM audit_log WHERE entity = 'product' ORDER BY seq`, {
      type: QueryTypes.SELECT,
    });

  it("writes one audit entry per product it creates or changes, naming the admin and each change", async () => {
    const tee = await teeWithSizes();
    const untouched = await createProduct({
      ...newRow(),
      title: "Untouched",
      price: 10,
      salePrice: 0,
      totalStock: 1,
    });
    const entriesBefore = (await auditOf()).length;
    const { version } = await getAdminProduct(tee._id);
    const { rows } = await exportCsv();
    const edited = rows.map((row) => (row.sku === "TEE-S" ? { ...row, totalStock: "9" } : row));
    const { status } = await importCsv(
      csvOf([...edited, newRow({ title: "Wool Scarf", size: "", colour: "", category: "accessories" })]),
    );
    expect(status).toBe(200);

    const entries = (await auditOf()).slice(entriesBefore);
    expect(entries).toHaveLength(2);
    const [update, create] = entries;
    expect(update).toMatchObject({ action: "update", entity_id: tee._id, actor_name: "Ada Admin" });
    expect(update!.changes).toEqual({ "variant TEE-S totalStock": [3, 9] });
    expect(create).toMatchObject({ action: "create" });
    expect(entries.map((entry) => entry.entity_id)).not.toContain(untouched._id);
    // A change of its variants alone raises the product's version, as an admin edit does.
    expect((await getAdminProduct(tee._id)).version).toBe(version + 1);
    expect((await getAdminProduct(untouched._id)).version).toBe(untouched.version);
  });

  it("leaves no entry when the file is refused", async () => {
    await teeWithSizes();
    const entriesBefore = (await auditOf()).length;
    const { status } = await importCsv(csvOf([newRow(), newRow({ price: "-1", sku: "X-1" })]));
    expect(status).toBe(422);
    expect(await auditOf()).toHaveLength(entriesBefore);
  });

  it("puts a new image in the gallery's first place and keeps the other pictures", async () => {
    const tee = await teeWithSizes();
    const second = "/images/products/a-line-denim-skirt.svg";
    await getDb().sequelize.query(
      `DELETE FROM product_images WHERE product_id = :id;
       INSERT INTO product_images (product_id, position, url, alt) VALUES (:id, 0, :first, 'Front'), (:id, 1, :second, 'Back')`,
      { replacements: { id: tee._id, first: IMAGE, second } },
    );
    const replacement = "/images/products/adicolor-track-jacket.svg";
    const { rows } = await exportCsv();
    await importCsv(csvOf(rows.map((row) => ({ ...row, image: replacement }))));
    const product = await getAdminProduct(tee._id);
    expect(product.image).toBe(replacement);
    expect(product.images.map((picture) => picture.url)).toEqual([replacement, second]);
  });
});

describe("the admin page's import form (/admin/products/import)", () => {
  const post = (text: string, fields: Record<string, string> = {}) =>
    run(
      importPage,
      multipartRequest(
        "/admin/products/import",
        { ...fields, my_file: file(text, "catalogue.csv", "text/csv") },
        callers.admin,
      ),
    );

  it("answers the refused cells (422) and imports nothing", async () => {
    const response = await post(csvOf([newRow(), newRow({ size: "L", sku: "", price: "abc" })]));
    expect(response.status).toBe(422);
    const body = (await response.json()) as { errors: unknown[] };
    expect(body.errors).toEqual([
      { row: 3, column: "price", message: "Price must be an amount such as 49.90" },
    ]);
    expect((await listAdminProducts({ page: 1, limit: 24 })).pagination.total).toBe(0);
  });

  it("imports and goes back to the list with its search and a message", async () => {
    const response = await post(csvOf([newRow()]), { q: "linen" });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/admin/products?q=linen");
    expect((await listAdminProducts({ page: 1, limit: 24, search: "linen" })).pagination.total).toBe(1);
  });
});

describe("a large import", () => {
  it("imports 10,000 rows while the listing keeps answering 200", { timeout: 120_000 }, async () => {
    await teeWithSizes();
    const sizes = ["XS", "S", "M", "L", "XL", "XXL"];
    const colours = ["black", "white", "grey", "navy", "blue"];
    const rows: Row[] = [];
    for (let product = 0; rows.length < 10_000; product++)
      for (const size of sizes)
        for (const colour of colours.slice(0, 2))
          if (rows.length < 10_000)
            rows.push(
              newRow({ title: `Bulk ${product}`, sku: `BULK-${product}-${size}-${colour}`, size, colour }),
            );
    let importing = true;
    const importDone = importCsv(csvOf(rows)).finally(() => {
      importing = false;
    });
    const statuses: number[] = [];
    while (importing) {
      const response = await callRoute(listingApi, "/api/shop/products/get?limit=24");
      statuses.push(response.status);
      await response.text();
    }
    const { status, body } = await importDone;
    expect(status).toBe(200);
    expect(body).toMatchObject({ created: 10_000, updated: 0 });
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.every((code) => code === 200)).toBe(true);
    const [count] = await getDb().sequelize.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM product_variants WHERE sku LIKE 'BULK-%'",
      { type: QueryTypes.SELECT },
    );
    expect(count!.n).toBe(10_000);
  });

  it(
    "an import and an admin's edit of the same products both finish (no deadlock)",
    { timeout: 60_000 },
    async () => {
      const tee = await teeWithSizes();
      const { text } = await exportCsv();
      const edits = Array.from({ length: 5 }, (_, index) =>
        updateProduct(tee._id, { description: `Edit ${index}` }),
      );
      const imports = Array.from({ length: 3 }, () => importCsv(text));
      const results = await Promise.allSettled([...edits, ...imports]);
      for (const result of results) expect(result.status).toBe("fulfilled");
      for (const result of results.slice(5))
        expect((result as PromiseFulfilledResult<{ status: number }>).value.status).toBe(200);
    },
  );
});
