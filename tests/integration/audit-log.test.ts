import { beforeEach, describe, expect, it } from "vitest";
import { QueryTypes } from "sequelize";
import { getDb } from "../../app/models/db.server";
import { setPaymentGateway } from "../../app/payments/index.server";
import { action as auditApi, loader as auditApiLoader } from "../../app/routes/api.admin.audit";
import { loader as auditPageLoader } from "../../app/routes/admin.audit";
import { action as addApi } from "../../app/routes/api.admin.products.add";
import { action as editApi } from "../../app/routes/api.admin.products.edit.$id";
import { action as deleteApi } from "../../app/routes/api.admin.products.delete.$id";
import { action as orderUpdateApi } from "../../app/routes/api.admin.orders.update.$id";
import { action as featureAddApi } from "../../app/routes/api.common.feature.add";
import { action as featureDeleteApi } from "../../app/routes/api.common.feature.delete.$id";
import { loader as unknownApi } from "../../app/routes/api.$";
import {
  action as adminProductsAction,
  loader as adminProductsLoader,
} from "../../app/routes/admin.products";
import { action as orderPageAction, loader as orderPageLoader } from "../../app/routes/admin.orders.$orderId";
import { updateProduct } from "../../app/services/product-writer.server";
import { VERSION_CONFLICT_MESSAGE } from "../../app/services/audit.server";
import { captureOrderPayment } from "../../app/services/checkout.server";
import { createOrPromoteAdmin } from "../../app/services/users.server";
import { createTestUser, resetDatabase } from "../support/database";
import {
  createCallers,
  createOrderRow,
  createProductRow,
  formRequest,
  jsonRequest,
  multipartRequest,
  readApi,
  run,
  type Callers,
} from "./admin-support";
import { approvedOrder, createShopper, type TestShopper } from "./checkout-support";

/**
 * Every admin change on record (docs/architecture.md, rule 16) and no silent overwrite:
 * the audit log is written in the change's own transaction, can only be read,
 * and products and orders carry a version that a stale edit is refused on.
 */

let callers: Callers;
beforeEach(async () => {
  await resetDatabase();
  setPaymentGateway(undefined);
  callers = await createCallers();
});

interface EntryRow {
  actorId: string | null;
  actorName: string;
  action: string;
  entity: string;
  entityId: string;
  changes: Record<string, [unknown, unknown]>;
  ip: string | null;
}

async function entries(where = "TRUE", bind: unknown[] = []): Promise<EntryRow[]> {
  return getDb().sequelize.query<EntryRow>(
    `SELECT actor_id AS "actorId", actor_name AS "actorName", action, entity, entity_id AS "entityId",
            changes, ip
       FROM audit_log WHERE ${where} ORDER BY seq`,
    { bind, type: QueryTypes.SELECT },
  );
}

async function versionOf(table: "products" | "orders", id: string): Promise<number> {
  const [row] = await getDb().sequelize.query<{ version: number }>(
    `SELECT version FROM ${table} WHERE id = $1`,
    {
      bind: [id],
      type: QueryTypes.SELECT,
    },
  );
  return row!.version;
}

const NEW_PRODUCT = {
  image: "/images/products/test.svg",
  title: "Audit Tee",
  description: "On record",
  category: "men",
  brand: "nike",
  price: 20,
  salePrice: 0,
  variants: [
    { sku: "AUD-M", size: "M", totalStock: 3 },
    { sku: "AUD-L", size: "L", totalStock: 5 },
  ],
};

async function addViaApi(body: Record<string, unknown> = NEW_PRODUCT) {
  const response = await run(
    addApi,
    jsonRequest("/api/admin/products/add", { json: body, cookie: callers.admin }),
  );
  expect(response.status).toBe(201);
  return (await readApi(response)).data as {
    _id: string;
    version: number;
    variants: { _id: string; sku: string; size: string; totalStock: number }[];
  };
}

function editViaApi(id: string, json: Record<string, unknown>) {
  return run(
    editApi,
    jsonRequest(`/api/admin/products/edit/${id}`, { method: "PUT", json, cookie: callers.admin }),
    { id },
  );
}

const variantsOf = (product: Awaited<ReturnType<typeof addViaApi>>, stock: Record<string, number> = {}) =>
  product.variants.map((variant) => ({
    _id: variant._id,
    sku: variant.sku,
    size: variant.size,
    totalStock: stock[variant.sku] ?? variant.totalStock,
  }));

describe("what each change writes", () => {
  it("a product added: its fields and variants after, by the admin from the client's address, version 1", async () => {
    const product = await addViaApi();
    expect(product.version).toBe(1);
    const [entry, ...rest] = await entries();
    expect(rest).toEqual([]);
    expect(entry).toMatchObject({
      actorId: callers.adminId,
      actorName: "Ada Admin",
      action: "create",
      entity: "product",
      entityId: product._id,
      ip: "127.0.0.1",
    });
    expect(entry!.changes).toMatchObject({
      title: [null, "Audit Tee"],
      price: [null, 20],
      category: [null, "men"],
      "variant AUD-M": [null, { size: "M", colour: null, totalStock: 3, price: 20, salePrice: 0 }],
      "variant AUD-L": [null, { size: "L", totalStock: 5 }],
    });
    // Empty optional fields are no change.
    expect(entry!.changes).not.toHaveProperty("material");
  });

  it("a product edited: each changed field before and after, a variant's stock by its SKU, and nothing else", async () => {
    const product = await addViaApi();
    const response = await editViaApi(product._id, {
      title: "Audit Tee 2",
      variants: variantsOf(product, { "AUD-M": 10 }),
    });
    expect(response.status).toBe(200);
    expect(((await readApi(response)).data as { version: number }).version).toBe(2);
    const updates = await entries("action = 'update'");
    expect(updates).toHaveLength(1);
    expect(updates[0]!.changes).toEqual({
      title: ["Audit Tee", "Audit Tee 2"],
      "variant AUD-M totalStock": [3, 10],
    });
  });

  it("a change of a variant alone raises the version too; a save that changes nothing writes nothing", async () => {
    const product = await addViaApi();
    await editViaApi(product._id, { variants: variantsOf(product, { "AUD-L": 7 }) });
    expect(await versionOf("products", product._id)).toBe(2);
    const same = await editViaApi(product._id, { title: "Audit Tee" });
    expect(same.status).toBe(200);
    expect(await versionOf("products", product._id)).toBe(2);
    expect((await entries("action = 'update'")).map((entry) => entry.changes)).toEqual([
      { "variant AUD-L totalStock": [5, 7] },
    ]);
  });

  it("a product deleted: its fields before", async () => {
    const product = await addViaApi();
    const response = await run(
      deleteApi,
      jsonRequest(`/api/admin/products/delete/${product._id}`, { method: "DELETE", cookie: callers.admin }),
      { id: product._id },
    );
    expect(response.status).toBe(200);
    const [entry] = await entries("action = 'delete'");
    expect(entry).toMatchObject({ entity: "product", entityId: product._id, actorName: "Ada Admin" });
    expect(entry!.changes).toMatchObject({
      title: ["Audit Tee", null],
      "variant AUD-M": [{ size: "M", totalStock: 3 }, null],
    });
  });

  it("an order's status: before and after; rejecting a paid order also records its refund", async () => {
    const shopper: TestShopper = await createShopper("Pat Payer");
    const product = await createProductRow({ totalStock: 5, price: "20.00" });
    const order = await approvedOrder(shopper, product.id, 2);
    await captureOrderPayment(shopper, { paymentId: order.paymentId });
    const response = await run(
      orderUpdateApi,
      jsonRequest(`/api/admin/orders/update/${order.orderId}`, {
        method: "PUT",
        json: { orderStatus: "rejected" },
        cookie: callers.admin,
      }),
      { id: order.orderId },
    );
    expect(response.status).toBe(200);
    const onOrder = await entries("entity = 'order' AND entity_id = $1", [order.orderId]);
    expect(onOrder.map(({ action, changes, actorName }) => ({ action, changes, actorName }))).toEqual([
      { action: "update", changes: { orderStatus: ["confirmed", "rejected"] }, actorName: "Ada Admin" },
      {
        action: "refund",
        changes: { paymentStatus: ["paid", "refunded"], refundedAmount: [0, 40] },
        actorName: "Ada Admin",
      },
    ]);
  });

  it("a shipment with its tracking number: the status and the tracking in one entry", async () => {
    const order = await createOrderRow({
      userId: callers.shopperId,
      paymentStatus: "paid",
      status: "confirmed",
    });
    const put = (json: Record<string, unknown>) =>
      run(
        orderUpdateApi,
        jsonRequest(`/api/admin/orders/update/${order.id}`, { method: "PUT", json, cookie: callers.admin }),
        { id: order.id },
      );
    expect(
      (await put({ orderStatus: "inShipping", carrier: "DHL", trackingNumber: "JD014600" })).status,
    ).toBe(200);
    expect((await put({ orderStatus: "inShipping", carrier: "UPS", trackingNumber: "1Z999" })).status).toBe(
      200,
    );
    const onOrder = await entries("entity = 'order' AND entity_id = $1", [order.id]);
    expect(onOrder.map(({ changes }) => changes)).toEqual([
      {
        orderStatus: ["confirmed", "inShipping"],
        carrier: [null, "DHL"],
        trackingNumber: [null, "JD014600"],
      },
      { carrier: ["DHL", "UPS"], trackingNumber: ["JD014600", "1Z999"] },
    ]);
  });

  it("a feature image added and deleted", async () => {
    const added = await run(
      featureAddApi,
      jsonRequest("/api/common/feature/add", {
        json: { image: "/images/banners/banner-1.svg", title: "Winter" },
        cookie: callers.admin,
      }),
    );
    expect(added.status).toBe(201);
    const feature = (await readApi(added)).data as { _id: string };
    const deleted = await run(
      featureDeleteApi,
      jsonRequest(`/api/common/feature/delete/${feature._id}`, { method: "DELETE", cookie: callers.admin }),
      { id: feature._id },
    );
    expect(deleted.status).toBe(200);
    expect((await entries("entity = 'feature'")).map(({ action, changes }) => ({ action, changes }))).toEqual(
      [
        {
          action: "create",
          changes: { image: [null, "/images/banners/banner-1.svg"], title: [null, "Winter"] },
        },
        {
          action: "delete",
          changes: { image: ["/images/banners/banner-1.svg", null], title: ["Winter", null] },
        },
      ],
    );
  });

  it("an admin account created or promoted by the script: actor null, named script", async () => {
    const created = await createOrPromoteAdmin({
      userName: "Ops",
      email: "ops@example.com",
      password: "long password",
    });
    const shopper = await createTestUser({ email: "pat@example.com" });
    await createOrPromoteAdmin({ userName: "Pat", email: "pat@example.com", password: "long password" });
    await createOrPromoteAdmin({ userName: "Pat", email: "pat@example.com", password: "long password" });
    const onUsers = await entries("entity = 'user'");
    expect(onUsers).toEqual([
      expect.objectContaining({
        actorId: null,
        actorName: "script",
        action: "create",
        entityId: created.user.id,
        changes: { userName: [null, "Ops"], email: [null, "ops@example.com"], role: [null, "admin"] },
      }),
      expect.objectContaining({
        actorId: null,
        actorName: "script",
        action: "promote",
        entityId: shopper.id,
        changes: { role: ["user", "admin"] },
      }),
    ]);
  });
});

describe("an entry exists exactly when its change committed", () => {
  it("a change refused in its transaction (a SKU another product has) leaves no entry", async () => {
    const product = await addViaApi();
    await addViaApi({ ...NEW_PRODUCT, title: "Other", variants: [{ sku: "OTHER-1", totalStock: 1 }] });
    const before = await entries();
    const response = await editViaApi(product._id, {
      title: "Never",
      variants: [{ ...variantsOf(product)[0], sku: "OTHER-1" }, variantsOf(product)[1]],
    });
    expect(response.status).toBe(409);
    expect(await entries()).toEqual(before);
    expect(await versionOf("products", product._id)).toBe(1);
  });

  it("a transaction that fails after its entry was written (at commit) leaves neither the change nor the entry", async () => {
    const product = await addViaApi();
    const { sequelize } = getDb();
    await sequelize.query(`
      CREATE FUNCTION test_fail_at_commit() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'forced failure at commit'; END $$;
      CREATE CONSTRAINT TRIGGER test_fail_at_commit AFTER UPDATE ON products
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION test_fail_at_commit();`);
    try {
      await expect(updateProduct(product._id, { title: "Rolled back" })).rejects.toThrow(/forced failure/);
    } finally {
      await sequelize.query(
        `DROP TRIGGER test_fail_at_commit ON products; DROP FUNCTION test_fail_at_commit();`,
      );
    }
    expect(await entries("action = 'update'")).toEqual([]);
    expect(await versionOf("products", product._id)).toBe(1);
  });

  it("twenty concurrent edits of one product leave twenty entries and raise its version twenty times", async () => {
    const product = await addViaApi();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, index) => editViaApi(product._id, { price: 21 + index })),
    );
    expect(results.map((response) => response.status)).toEqual(Array(20).fill(200));
    const updates = await entries("action = 'update'");
    expect(updates).toHaveLength(20);
    expect(new Set(updates.map((entry) => JSON.stringify(entry.changes.price?.[1]))).size).toBe(20);
    expect(await versionOf("products", product._id)).toBe(21);
  });
});

describe("no way to change or delete an entry", () => {
  it("the API has no method for it: PUT, DELETE and PATCH answer 405, an entry's path 404", async () => {
    await addViaApi();
    for (const method of ["PUT", "DELETE", "PATCH"]) {
      const response = await run(
        auditApi,
        jsonRequest("/api/admin/audit", { method, json: {}, cookie: callers.admin }),
      );
      expect(response.status, method).toBe(405);
    }
    const [row] = await getDb().sequelize.query<{ id: string }>(`SELECT id FROM audit_log`, {
      type: QueryTypes.SELECT,
    });
    const id = row!.id;
    const byPath = await run(
      unknownApi,
      jsonRequest(`/api/admin/audit/${id}`, { method: "DELETE", cookie: callers.admin }),
      { "*": `admin/audit/${id}` },
    );
    expect(byPath.status).toBe(404);
    expect(await entries()).toHaveLength(1);
  });

  it("the database refuses UPDATE and DELETE on audit_log", async () => {
    await addViaApi();
    const { sequelize } = getDb();
    await expect(sequelize.query(`UPDATE audit_log SET actor_name = 'someone else'`)).rejects.toThrow(
      /cannot be changed or deleted/,
    );
    await expect(sequelize.query(`DELETE FROM audit_log`)).rejects.toThrow(/cannot be changed or deleted/);
    expect(await entries()).toEqual([expect.objectContaining({ actorName: "Ada Admin" })]);
  });
});

describe("GET /api/admin/audit", () => {
  function getAudit(query: string, cookie: string | null = callers.admin) {
    return run(auditApiLoader, jsonRequest(`/api/admin/audit${query}`, { cookie }));
  }

  it("answers newest first, filtered by entity and entityId, paged", async () => {
    const first = await addViaApi();
    const second = await addViaApi({
      ...NEW_PRODUCT,
      title: "Second",
      variants: [{ sku: "S-1", totalStock: 1 }],
    });
    await editViaApi(first._id, { title: "First again" });
    const all = await readApi(await getAudit(""));
    expect((all.data as { entityId: string; action: string }[]).map((e) => [e.entityId, e.action])).toEqual([
      [first._id, "update"],
      [second._id, "create"],
      [first._id, "create"],
    ]);
    const one = await readApi(await getAudit(`?entity=product&entityId=${first._id}&limit=1&page=2`));
    expect(one.data).toEqual([
      expect.objectContaining({
        action: "create",
        actor: { id: callers.adminId, userName: "Ada Admin" },
        ip: "127.0.0.1",
      }),
    ]);
    expect(one.pagination).toEqual({ page: 2, limit: 1, total: 2, pages: 2 });
  });

  it("refuses a filter it does not know (400 naming it), and anyone but an admin", async () => {
    for (const query of ["?entity=cart", "?entityId=12", "?page=0", "?from=2026-13-40", "?to=2026-02-30"]) {
      const response = await getAudit(query);
      expect(response.status, query).toBe(400);
      expect((await readApi(response)).message).toMatch(/entity|entityId|page|from|to/);
    }
    expect((await getAudit("", callers.shopper)).status).toBe(403);
    expect((await getAudit("", null)).status).toBe(401);
  });

  it("the admin page filters by action, actor and date from its URL, and ignores a filter it cannot read", async () => {
    const product = await addViaApi();
    await updateProduct(product._id, { title: "By the shop" });
    const page = await run(
      auditPageLoader,
      jsonRequest(`/admin/audit?action=update&actor=SYS&from=2000-01-01&entity=nonsense`, {
        cookie: callers.admin,
      }),
    );
    const data = (await page.json()) as { entries: { actor: { userName: string } }[]; filters: unknown };
    expect(data.entries.map((entry) => entry.actor.userName)).toEqual(["system"]);
    expect(data.filters).toMatchObject({ action: "update", actor: "SYS", entity: "" });
    const future = await run(
      auditPageLoader,
      jsonRequest(`/admin/audit?from=2999-01-01`, { cookie: callers.admin }),
    );
    expect(((await future.json()) as { entries: unknown[] }).entries).toEqual([]);
  });
});

describe("versions: no silent overwrite", () => {
  it("a product edit based on an old version answers 409 and changes nothing; without version it applies", async () => {
    const product = await addViaApi();
    expect((await editViaApi(product._id, { title: "First", version: 1 })).status).toBe(200);
    const stale = await editViaApi(product._id, { title: "Second", version: 1 });
    expect(stale.status).toBe(409);
    expect((await readApi(stale)).message).toBe(VERSION_CONFLICT_MESSAGE);
    expect(await versionOf("products", product._id)).toBe(2);
    const blind = await editViaApi(product._id, { title: "Third" });
    expect(blind.status).toBe(200);
    expect((await readApi(blind)).data).toMatchObject({ title: "Third", version: 3 });
    expect((await editViaApi(product._id, { title: "x", version: "two" })).status).toBe(400);
  });

  it("an order update based on an old version answers 409; without version it applies", async () => {
    const order = await createOrderRow({
      userId: callers.shopperId,
      paymentStatus: "paid",
      status: "confirmed",
    });
    const put = (json: Record<string, unknown>) =>
      run(
        orderUpdateApi,
        jsonRequest(`/api/admin/orders/update/${order.id}`, { method: "PUT", json, cookie: callers.admin }),
        { id: order.id },
      );
    const first = await put({ orderStatus: "inProcess", version: 1 });
    expect(first.status).toBe(200);
    expect((await readApi(first)).data).toMatchObject({ orderStatus: "inProcess", version: 2 });
    const stale = await put({ orderStatus: "inShipping", version: 1 });
    expect(stale.status).toBe(409);
    expect((await readApi(stale)).message).toBe(VERSION_CONFLICT_MESSAGE);
    expect(await versionOf("orders", order.id)).toBe(2);
    expect((await put({ orderStatus: "inShipping" })).status).toBe(200);
    expect(await versionOf("orders", order.id)).toBe(3);
  });

  it("a shopper's purchase does not make an admin's product edit stale", async () => {
    const shopper = await createShopper("Pat Payer");
    const product = await addViaApi({ ...NEW_PRODUCT, variants: [{ sku: "ONE", totalStock: 5 }] });
    const order = await approvedOrder(shopper, product._id, 1);
    await captureOrderPayment(shopper, { paymentId: order.paymentId });
    expect(await versionOf("products", product._id)).toBe(1);
    expect((await editViaApi(product._id, { title: "Still mine", version: 1 })).status).toBe(200);
  });
});

describe("the admin pages", () => {
  it("the product form sends its version; a stale save shows the message and keeps the admin's input", async () => {
    const product = await addViaApi({ ...NEW_PRODUCT, variants: [{ sku: "ONE", totalStock: 5 }] });
    await editViaApi(product._id, { price: 25 });
    const response = await run(
      adminProductsAction,
      multipartRequest(
        `/admin/products?edit=${product._id}`,
        {
          intent: "update",
          id: product._id,
          version: "1",
          image: NEW_PRODUCT.image,
          title: "My stale title",
          description: "On record",
          category: "men",
          brand: "nike",
          price: "30",
          salePrice: "0",
          "variants[0]._id": product.variants[0]!._id,
          "variants[0].sku": "ONE",
          "variants[0].totalStock": "5",
        },
        callers.admin,
      ),
    );
    expect(response.status).toBe(409);
    const { result } = (await response.json()) as {
      result: { error: Record<string, string[]>; initialValue: Record<string, unknown> };
    };
    expect(result.error[""]).toEqual([VERSION_CONFLICT_MESSAGE]);
    expect(result.initialValue).toMatchObject({ title: "My stale title", price: "30", version: "1" });
    const row = await getDb().models.Product.findByPk(product._id, { raw: true });
    expect(row).toMatchObject({ title: "Audit Tee", price: "25.00", version: 2 });
  });

  it("the product's edit panel shows its history and version", async () => {
    const product = await addViaApi();
    await editViaApi(product._id, { price: 25 });
    const page = await run(
      adminProductsLoader,
      jsonRequest(`/admin/products?edit=${product._id}`, { cookie: callers.admin }),
    );
    const data = (await page.json()) as {
      editing: { version: number };
      history: { action: string; actor: { userName: string }; changes: Record<string, unknown> }[];
    };
    expect(data.editing.version).toBe(2);
    expect(data.history.map((entry) => entry.action)).toEqual(["update", "create"]);
    expect(data.history[0]).toMatchObject({ actor: { userName: "Ada Admin" }, changes: { price: [20, 25] } });
  });

  it("the order page shows its history; a stale status update keeps the choice and says so", async () => {
    const order = await createOrderRow({
      userId: callers.shopperId,
      paymentStatus: "paid",
      status: "confirmed",
    });
    const post = (form: Record<string, string>) =>
      run(orderPageAction, formRequest(`/admin/orders/${order.id}`, form, callers.admin), {
        orderId: order.id,
      });
    expect((await post({ orderStatus: "inProcess", version: "1" })).status).toBe(302);
    const stale = await post({
      orderStatus: "delivered",
      version: "1",
      carrier: "DHL",
      trackingNumber: "JD014600",
    });
    expect(stale.status).toBe(409);
    expect(await stale.json()).toEqual({
      error: VERSION_CONFLICT_MESSAGE,
      sent: { orderStatus: "delivered", version: "1", carrier: "DHL", trackingNumber: "JD014600" },
    });
    const page = await run(
      orderPageLoader,
      jsonRequest(`/admin/orders/${order.id}`, { cookie: callers.admin }),
      {
        orderId: order.id,
      },
    );
    const data = (await page.json()) as { order: { version: number }; history: unknown[] };
    expect(data.order.version).toBe(2);
    expect(data.history).toEqual([
      expect.objectContaining({ action: "update", changes: { orderStatus: ["confirmed", "inProcess"] } }),
    ]);
  });
});
