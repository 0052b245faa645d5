import { parse } from "csv-parse/sync";
import { beforeEach, describe, expect, it } from "vitest";
import { CATALOGUE_COLUMNS } from "../../app/lib/shared/catalogue-csv";
import { setPaymentGateway } from "../../app/payments/index.server";
import { action as adminProductsAction } from "../../app/routes/admin.products";
import { action as editApi } from "../../app/routes/api.admin.products.edit.$id";
import { loader as exportApi } from "../../app/routes/api.admin.products.export";
import { action as importApi } from "../../app/routes/api.admin.products.import";
import { addToCart } from "../../app/services/cart-lines.server";
import { captureOrderPayment, createOrderFromCart } from "../../app/services/checkout.server";
import { getAdminProduct } from "../../app/services/admin-catalog.server";
import { createProduct, updateProduct } from "../../app/services/product-writer.server";
import { resetDatabase } from "../support/database";
import {
  createCallers,
  file,
  jsonRequest,
  multipartRequest,
  readApi,
  run,
  type Callers,
} from "./admin-support";
import { createShopper, payerAnswers, saveAddress, variantStock } from "./checkout-support";

/**
 * Stock is never lost to a stale edit (API.md "Sizes and colours"), against
 * the real PostgreSQL, the real cart and the real checkout: an edit that
 * carries the stock the admin saw (`stockRead`, and `stockExported` in the
 * catalogue CSV) applies what the admin changed to the stock as it is when
 * it is saved.
 */

let callers: Callers;
beforeEach(async () => {
  await resetDatabase();
  setPaymentGateway(undefined);
  callers = await createCallers();
});

const BASE = {
  title: "Delta Tee",
  description: "Sold while edited",
  category: "men",
  brand: "zara",
  material: "Cotton",
  image: "/images/products/classic-tee.svg",
  price: 20,
  salePrice: 0,
};

/** A tee in M (and L when asked) with the given stock. */
async function tee(stock: { M: number; L?: number }) {
  const variants = [{ size: "M", sku: "DELTA-M", totalStock: stock.M }];
  if (stock.L !== undefined) variants.push({ size: "L", sku: "DELTA-L", totalStock: stock.L });
  const product = await createProduct({ ...BASE, variants });
  const bySize = Object.fromEntries(product.variants.map((variant) => [variant.size, variant]));
  return { product, m: bySize.M!, l: bySize.L };
}

/** A shopper buys `quantity` of the variant through the cart, the checkout and the payment's capture. */
async function buy(productId: string, variantId: string, quantity: number, name = "Quick Shopper") {
  const shopper = await createShopper(name);
  await addToCart(shopper.id, productId, quantity, variantId);
  const address = await saveAddress(shopper.id);
  const created = await createOrderFromCart(shopper, { addressId: address._id });
  const answer = await payerAnswers(created.order.paymentId!, "approve");
  await captureOrderPayment(shopper, { paymentId: answer.token });
  return shopper;
}

describe("an admin edit with stockRead", () => {
  it("keeps a sale made between reading and saving: the price changes, the stock stays sold out", async () => {
    const { product, m } = await tee({ M: 3 });
    // The admin reads the product: 3 in stock.
    const read = await getAdminProduct(product._id);
    expect(read.variants[0]!.totalStock).toBe(3);

    await buy(product._id, m._id, 3);
    expect((await variantStock(product._id)).bySize).toEqual({ M: 0 });

    const saved = await run(
      editApi,
      jsonRequest(`/api/admin/products/edit/${product._id}`, {
        method: "PUT",
        json: {
          price: 25,
          variants: [{ _id: m._id, sku: "DELTA-M", size: "M", totalStock: 3, stockRead: 3 }],
        },
        cookie: callers.admin,
      }),
      { id: product._id },
    );
    expect(saved.status).toBe(200);
    expect((await readApi(saved)).data).toMatchObject({ price: 25, totalStock: 0 });
    expect(await variantStock(product._id)).toMatchObject({ bySize: { M: 0 }, product: 0 });

    const second = await createShopper("Late Shopper");
    await expect(addToCart(second.id, product._id, 1, m._id)).rejects.toMatchObject({ status: 409 });
  });

  it("keeps the sale through the admin form too, which sends the stock the editor saw", async () => {
    const { product, m } = await tee({ M: 3 });
    await buy(product._id, m._id, 2);
    const response = await run(
      adminProductsAction,
      multipartRequest(
        `/admin/products?edit=${product._id}`,
        {
          intent: "update",
          id: product._id,
          image: BASE.image,
          title: BASE.title,
          description: BASE.description,
          category: BASE.category,
          brand: BASE.brand,
          material: BASE.material,
          price: "25",
          salePrice: "",
          "variants[0]._id": m._id,
          "variants[0].sku": "DELTA-M",
          "variants[0].size": "M",
          // The editor saw 3 and typed 5: two more than they saw, on top of the 1 left.
          "variants[0].totalStock": "5",
          "variants[0].stockRead": "3",
        },
        callers.admin,
      ),
    );
    expect(response.status).toBe(302);
    expect((await variantStock(product._id)).bySize).toEqual({ M: 3 });
  });

  it("applies both of two admins' additions made at once", async () => {
    const { product, m, l } = await tee({ M: 5, L: 1 });
    const edit = (mStock: number, lStock: number) =>
      updateProduct(product._id, {
        variants: [
          { _id: m._id, sku: "DELTA-M", size: "M", totalStock: mStock, stockRead: 5 },
          { _id: l!._id, sku: "DELTA-L", size: "L", totalStock: lStock, stockRead: 1 },
        ],
      });
    // One adds 3 M, the other 2 M and 4 L, each from the same page they read.
    await Promise.all([edit(8, 1), edit(7, 5)]);
    expect(await variantStock(product._id)).toMatchObject({ bySize: { M: 10, L: 5 }, product: 15 });
  });

  it("leaves the stock untouched when the editor changed nothing, never goes below 0, and sets it without stockRead", async () => {
    const { product, m } = await tee({ M: 4 });
    await buy(product._id, m._id, 3);
    const save = (variant: Record<string, unknown>) =>
      updateProduct(product._id, { variants: [{ _id: m._id, sku: "DELTA-M", size: "M", ...variant }] });

    await save({ totalStock: 4, stockRead: 4 });
    expect((await variantStock(product._id)).bySize).toEqual({ M: 1 });
    // Took 3 away from the 4 seen, but only 1 is left: 0, not -2.
    await save({ totalStock: 1, stockRead: 4 });
    expect((await variantStock(product._id)).bySize).toEqual({ M: 0 });
    await save({ totalStock: 6 });
    expect((await variantStock(product._id)).bySize).toEqual({ M: 6 });
  });

  it("refuses a stockRead that is not a count, with the row's field", async () => {
    const { product, m } = await tee({ M: 4 });
    const response = await run(
      editApi,
      jsonRequest(`/api/admin/products/edit/${product._id}`, {
        method: "PUT",
        json: { variants: [{ _id: m._id, size: "M", totalStock: 4, stockRead: "many" }] },
        cookie: callers.admin,
      }),
      { id: product._id },
    );
    expect(response.status).toBe(400);
    expect((await readApi(response)).errors).toEqual({
      "variants.0.stockRead": ["Stock read must be a whole number"],
    });
  });
});

type Row = Record<string, string>;

async function exportRows(): Promise<Row[]> {
  const response = await run(exportApi, jsonRequest("/api/admin/products/export", { cookie: callers.admin }));
  return parse(await response.text(), { bom: true, columns: true }) as Row[];
}

function csvOf(rows: Row[], columns: readonly string[] = CATALOGUE_COLUMNS): string {
  const quote = (value: string) => `"${value.replace(/"/g, '""')}"`;
  return [
    columns.join(","),
    ...rows.map((row) => columns.map((column) => quote(row[column] ?? "")).join(",")),
  ].join("\r\n");
}

async function importCsv(text: string) {
  const response = await run(
    importApi,
    multipartRequest(
      "/api/admin/products/import",
      { my_file: file(text, "catalogue.csv", "text/csv") },
      callers.admin,
    ),
  );
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe("the catalogue CSV with stockExported", () => {
  it("exports the stock twice, and an import of an earlier export after a sale keeps the sale", async () => {
    const { product, m } = await tee({ M: 5, L: 2 });
    const rows = await exportRows();
    expect(rows.map((row) => [row.sku, row.totalStock, row.stockExported])).toEqual([
      ["DELTA-M", "5", "5"],
      ["DELTA-L", "2", "2"],
    ]);

    await buy(product._id, m._id, 2);
    // The admin changed the title and added 3 L in the spreadsheet meanwhile.
    const edited = rows.map((row) => ({
      ...row,
      title: "Delta Tee Renamed",
      totalStock: row.sku === "DELTA-L" ? "5" : row.totalStock!,
    }));
    const imported = await importCsv(csvOf(edited));
    expect(imported).toMatchObject({ status: 200, body: { updated: 2 } });
    expect((await variantStock(product._id)).bySize).toEqual({ M: 3, L: 5 });
    expect((await getAdminProduct(product._id)).title).toBe("Delta Tee Renamed");
  });

  it("sets the stock from a row without stockExported", async () => {
    const { product, m } = await tee({ M: 5 });
    const rows = await exportRows();
    await buy(product._id, m._id, 2);
    const columns = CATALOGUE_COLUMNS.filter((column) => column !== "stockExported");
    expect((await importCsv(csvOf(rows, columns))).status).toBe(200);
    expect((await variantStock(product._id)).bySize).toEqual({ M: 5 });

    const blank = await exportRows();
    expect(
      (await importCsv(csvOf(blank.map((row) => ({ ...row, totalStock: "7", stockExported: "" }))))).status,
    ).toBe(200);
    expect((await variantStock(product._id)).bySize).toEqual({ M: 7 });
  });

  it("names the row and the problem when the only row has an extra cell", async () => {
    const header = CATALOGUE_COLUMNS.join(",");
    const cells = CATALOGUE_COLUMNS.map((column) => (column === "price" ? "20" : "x"));
    const imported = await importCsv(`${header}\r\n${[...cells, "extra"].join(",")}\r\n`);
    const count = CATALOGUE_COLUMNS.length;
    expect(imported.status).toBe(422);
    expect(imported.body).toMatchObject({
      message: `Row 2 has ${count + 1} cells; the header has ${count}`,
      errors: [{ row: 2, column: "", message: `Row 2 has ${count + 1} cells; the header has ${count}` }],
    });
  });
});
