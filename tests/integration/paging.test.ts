import { beforeEach, describe, expect, it } from "vitest";
import { loader as adminOrdersApi } from "../../app/routes/api.admin.orders.get";
import { loader as adminProductsApi } from "../../app/routes/api.admin.products.get";
import { loader as reviewsApi } from "../../app/routes/api.shop.review.$productId";
import { loader as productsApi } from "../../app/routes/api.shop.products.get";
import { loader as searchApi } from "../../app/routes/api.shop.search.$keyword";
import { loader as adminOrdersPage } from "../../app/routes/admin.orders";
import { loader as adminProductsPage } from "../../app/routes/admin.products";
import { resetDatabase } from "../support/database";
import { createProduct } from "../support/storefront";
import { createCallers, jsonRequest, run, type Callers } from "./admin-support";

/**
 * Every paged list answers the paging module's `{ page, limit, total, pages }`
 * with the same rule for an empty list (0 pages), whether the catalogue's,
 * the admin's, an API's or a page's.
 */

let callers: Callers;

beforeEach(async () => {
  await resetDatabase();
  callers = await createCallers();
});

async function paginationOf(response: Response) {
  expect(response.status).toBe(200);
  return ((await response.json()) as { pagination: unknown }).pagination;
}

describe("an empty list has 0 pages", () => {
  it("in the admin's lists, API and pages alike", async () => {
    const admin = { cookie: callers.admin };
    expect(
      await paginationOf(await run(adminOrdersApi, jsonRequest("/api/admin/orders/get", admin))),
    ).toEqual({
      page: 1,
      limit: 20,
      total: 0,
      pages: 0,
    });
    expect(
      await paginationOf(
        await run(adminProductsApi, jsonRequest("/api/admin/products/get?search=none", admin)),
      ),
    ).toEqual({ page: 1, limit: 24, total: 0, pages: 0 });
    expect(await paginationOf(await run(adminOrdersPage, jsonRequest("/admin/orders", admin)))).toEqual({
      page: 1,
      limit: 20,
      total: 0,
      pages: 0,
    });
    expect(
      await paginationOf(await run(adminProductsPage, jsonRequest("/admin/products?page=3", admin))),
    ).toEqual({ page: 3, limit: 24, total: 0, pages: 0 });
  });

  it("in the catalogue's lists: products, search and reviews", async () => {
    const product = await createProduct({ title: "Plain Tee" });
    const empty = { page: 1, limit: 24, total: 0, pages: 0 };
    expect(
      await paginationOf(await run(productsApi, jsonRequest("/api/shop/products/get?brand=zara"))),
    ).toEqual(empty);
    expect(
      await paginationOf(
        await run(searchApi, jsonRequest("/api/shop/search/nothingmatches"), { keyword: "nothingmatches" }),
      ),
    ).toEqual(empty);
    expect(
      await paginationOf(
        await run(reviewsApi, jsonRequest(`/api/shop/review/${product.id}`), { productId: product.id }),
      ),
    ).toEqual(empty);
  });
});

describe("a page's URL out of range", () => {
  it("shows the admin's first page at its page size, as the storefront does", async () => {
    const admin = { cookie: callers.admin };
    for (const path of ["/admin/products?page=2000000&limit=500", "/admin/products?page=0&limit=-1"]) {
      expect(await paginationOf(await run(adminProductsPage, jsonRequest(path, admin))), path).toEqual({
        page: 1,
        limit: 24,
        total: 0,
        pages: 0,
      });
    }
    expect(
      await paginationOf(
        await run(adminOrdersPage, jsonRequest("/admin/orders?page=9999999&limit=101", admin)),
      ),
    ).toEqual({ page: 1, limit: 20, total: 0, pages: 0 });
  });
});

describe("a list with items", () => {
  it("counts its pages the same way in the admin's lists and the catalogue", async () => {
    for (let i = 0; i < 3; i++) await createProduct({ title: `Tee ${i}`, brand: "nike" });
    const admin = { cookie: callers.admin };
    expect(
      await paginationOf(
        await run(adminProductsApi, jsonRequest("/api/admin/products/get?limit=2&page=5", admin)),
      ),
    ).toEqual({ page: 5, limit: 2, total: 3, pages: 2 });
    expect(
      await paginationOf(
        await run(productsApi, jsonRequest("/api/shop/products/get?brand=nike&limit=2&page=5")),
      ),
    ).toEqual({ page: 5, limit: 2, total: 3, pages: 2 });
  });
});
