import { beforeEach, describe, expect, it } from "vitest";
import { action as discountsAction, loader as discountsLoader } from "../../app/routes/admin.discounts";
import { action as shippingAction, loader as shippingLoader } from "../../app/routes/admin.shipping";
import { action as discountsApi } from "../../app/routes/api.admin.discounts";
import { action as methodsApi } from "../../app/routes/api.admin.shipping-methods";
import { historyOf } from "../../app/services/audit.server";
import {
  createDiscountCode,
  getDiscountCode,
  listDiscountCodes,
} from "../../app/services/discount-admin.server";
import {
  createShippingMethod,
  getShippingMethod,
  listShippingMethods,
} from "../../app/services/shipping.server";
import { getDb } from "../../app/models/db.server";
import { resetDatabase } from "../support/database";
import {
  createCallers,
  flashOf,
  formRequest,
  jsonRequest,
  readApi,
  run,
  type Callers,
} from "./admin-support";

/**
 * The admin's delivery options (/admin/shipping) and discount codes
 * (/admin/discounts) pages as a browser without JavaScript uses them: plain
 * forms that post, a redirect with a flash on success, the form again with
 * each field's message and the values sent on a refusal. The rules are the
 * JSON API's (the same service functions), and every change is on record.
 */

let callers: Callers;
beforeEach(async () => {
  await resetDatabase();
  callers = await createCallers();
});

interface FormReply {
  form: string;
  values: Record<string, string | string[]>;
  errors: Record<string, string[]>;
  message: string | null;
}

const STANDARD = {
  intent: "create",
  name: "Standard",
  price: "4.95",
  estimatedDaysMin: "3",
  estimatedDaysMax: "5",
  estimatedText: "",
  freeOver: "50",
  active: "on",
  position: "1",
};

describe("/admin/shipping", () => {
  it("sends a shopper away, as every admin page does", async () => {
    for (const response of [
      await run(shippingLoader, jsonRequest("/admin/shipping", { cookie: callers.shopper })),
      await run(shippingAction, formRequest("/admin/shipping", STANDARD, callers.shopper)),
    ]) {
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toBe("/unauth-page");
    }
    expect(await listShippingMethods()).toEqual([]);
  });

  it("adds an option from the form, lists it and records who added it", async () => {
    const response = await run(
      shippingAction,
      formRequest("/admin/shipping?panel=new", STANDARD, callers.admin),
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/admin/shipping");
    expect(flashOf(response)).toEqual({ type: "success", message: "Delivery option added" });

    const page = await run(shippingLoader, jsonRequest("/admin/shipping", { cookie: callers.admin }));
    const data = (await page.json()) as { methods: Record<string, unknown>[] };
    expect(data.methods).toEqual([
      expect.objectContaining({
        name: "Standard",
        price: 4.95,
        estimatedDays: "3–5 days",
        freeOver: 50,
        active: true,
        position: 1,
      }),
    ]);
    const [entry] = await historyOf("shippingMethod", data.methods[0]!._id as string);
    expect(entry).toMatchObject({
      action: "create",
      actor: { id: callers.adminId, userName: "Ada Admin" },
      changes: { name: [null, "Standard"], price: [null, 4.95] },
    });
  });

  it("refuses bad input with each field's message and the values sent, saving nothing", async () => {
    const response = await run(
      shippingAction,
      formRequest(
        "/admin/shipping?panel=new",
        { ...STANDARD, name: " ", price: "cheap", estimatedDaysMin: "5" },
        callers.admin,
      ),
    );
    expect(response.status).toBe(400);
    const reply = (await response.json()) as FormReply;
    expect(reply.form).toBe("new");
    expect(reply.errors).toMatchObject({
      name: ["name is required: the option's name, such as Standard"],
      price: ["price must be an amount such as 4.95"],
    });
    expect(reply.values).toMatchObject({ price: "cheap", estimatedDaysMin: "5", freeOver: "50" });
    expect(await listShippingMethods()).toEqual([]);

    // The rules across fields speak once each field is fine on its own.
    const days = await run(
      shippingAction,
      formRequest(
        "/admin/shipping?panel=new",
        { ...STANDARD, estimatedDaysMin: "5", estimatedDaysMax: "2" },
        callers.admin,
      ),
    );
    expect(days.status).toBe(400);
    expect(((await days.json()) as FormReply).errors).toEqual({
      estimatedDaysMax: ["estimatedDaysMax cannot be below estimatedDaysMin"],
    });

    await createShippingMethod({ name: "Express", price: 12.95 });
    const taken = await run(
      shippingAction,
      formRequest("/admin/shipping?panel=new", { ...STANDARD, name: "Express" }, callers.admin),
    );
    expect(taken.status).toBe(400);
    expect(((await taken.json()) as FormReply).errors.name).toEqual([
      "A delivery option with this name exists already",
    ]);
  });

  it("edits every field, an unticked box deactivating the option, and opens the edit form from the URL", async () => {
    const method = await createShippingMethod({ name: "Standard", price: "4.95", freeOver: "50" });
    const page = await run(
      shippingLoader,
      jsonRequest(`/admin/shipping?edit=${method._id}`, { cookie: callers.admin }),
    );
    expect(((await page.json()) as { editing: { _id: string } }).editing._id).toBe(method._id);

    const { active: _unticked, ...edited } = {
      ...STANDARD,
      intent: "update",
      id: method._id,
      name: "Economy",
      price: "2.50",
      estimatedDaysMin: "",
      estimatedDaysMax: "",
      estimatedText: "About a week",
      freeOver: "",
      position: "7",
    };
    const response = await run(
      shippingAction,
      formRequest(`/admin/shipping?edit=${method._id}`, edited, callers.admin),
    );
    expect(response.status).toBe(302);
    expect(flashOf(response)?.message).toBe("Delivery option updated");
    expect(await getShippingMethod(method._id)).toMatchObject({
      name: "Economy",
      price: 2.5,
      estimatedDays: "About a week",
      estimatedText: "About a week",
      freeOver: null,
      active: false,
      position: 7,
    });
    const [entry] = await historyOf("shippingMethod", method._id);
    expect(entry).toMatchObject({
      action: "update",
      changes: { name: ["Standard", "Economy"], active: [true, false], freeOver: [50, null] },
    });

    const refused = await run(
      shippingAction,
      formRequest(`/admin/shipping?edit=${method._id}`, { ...edited, price: "-1" }, callers.admin),
    );
    expect(refused.status).toBe(400);
    const reply = (await refused.json()) as FormReply;
    expect(reply.form).toBe(method._id);
    expect(reply.errors.price).toEqual(["price must be at least 0"]);
    expect((await getShippingMethod(method._id)).price).toBe(2.5);
  });

  it("deletes an option (on record); an unknown one comes back with a message, not an error page", async () => {
    const method = await createShippingMethod({ name: "Standard", price: "4.95" });
    const response = await run(
      shippingAction,
      formRequest("/admin/shipping", { intent: "delete", id: method._id }, callers.admin),
    );
    expect(response.status).toBe(302);
    expect(flashOf(response)).toEqual({ type: "success", message: "Delivery option deleted" });
    expect(await listShippingMethods()).toEqual([]);
    expect((await historyOf("shippingMethod", method._id))[0]).toMatchObject({
      action: "delete",
      changes: { name: ["Standard", null] },
    });

    const again = await run(
      shippingAction,
      formRequest("/admin/shipping", { intent: "delete", id: method._id }, callers.admin),
    );
    expect(again.status).toBe(302);
    expect(flashOf(again)).toEqual({ type: "error", message: "Delivery option not found" });
    const missing = await run(
      shippingLoader,
      jsonRequest("/admin/shipping?edit=not-an-id", { cookie: callers.admin }),
    );
    expect(missing.status).toBe(302);
    expect(flashOf(missing)?.message).toBe("Delivery option not found");
  });

  it("records a change made through the JSON API too", async () => {
    const response = await run(
      methodsApi,
      jsonRequest("/api/admin/shipping-methods", {
        json: { name: "Express", price: 12.95 },
        cookie: callers.admin,
      }),
    );
    expect(response.status).toBe(201);
    const [method] = await listShippingMethods();
    expect((await historyOf("shippingMethod", method!._id))[0]).toMatchObject({
      action: "create",
      actor: { id: callers.adminId },
    });
  });
});

const SUMMER = {
  intent: "create",
  code: "SUMMER10",
  type: "percent",
  value: "10",
  minSubtotal: "20",
  startsAt: "2026-06-01T00:00",
  endsAt: "2026-08-31T23:59",
  usageLimit: "100",
  perCustomerLimit: "1",
  active: "on",
};

/** A form with ticked checkboxes: a field sent once per ticked box. */
function formWithLists(
  path: string,
  form: Record<string, string>,
  lists: Record<string, string[]>,
  cookie: string,
) {
  const body = new URLSearchParams(form);
  for (const [name, values] of Object.entries(lists)) for (const value of values) body.append(name, value);
  return new Request(`http://localhost:3000${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie },
    body: body.toString(),
  });
}

describe("/admin/discounts", () => {
  it("sends a shopper away, as every admin page does", async () => {
    for (const response of [
      await run(discountsLoader, jsonRequest("/admin/discounts", { cookie: callers.shopper })),
      await run(discountsAction, formRequest("/admin/discounts", SUMMER, callers.shopper)),
    ]) {
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toBe("/unauth-page");
    }
    expect(await listDiscountCodes()).toEqual([]);
  });

  it("adds a code with every field, its dates read as UTC, and lists it with its uses", async () => {
    const response = await run(
      discountsAction,
      formWithLists(
        "/admin/discounts?panel=new",
        SUMMER,
        { categories: ["men", "women"], brands: ["nike"] },
        callers.admin,
      ),
    );
    expect(response.status).toBe(302);
    expect(flashOf(response)).toEqual({ type: "success", message: "Discount code added" });
    const page = await run(discountsLoader, jsonRequest("/admin/discounts", { cookie: callers.admin }));
    const { codes } = (await page.json()) as { codes: Record<string, unknown>[] };
    expect(codes).toEqual([
      {
        _id: expect.any(String),
        code: "SUMMER10",
        type: "percent",
        value: 10,
        minSubtotal: 20,
        startsAt: "2026-06-01T00:00:00.000Z",
        endsAt: "2026-08-31T23:59:00.000Z",
        usageLimit: 100,
        perCustomerLimit: 1,
        categories: ["men", "women"],
        brands: ["nike"],
        active: true,
        uses: 0,
      },
    ]);
    expect((await historyOf("discountCode", codes[0]!._id as string))[0]).toMatchObject({
      action: "create",
      actor: { id: callers.adminId },
      changes: { code: [null, "SUMMER10"], categories: [null, ["men", "women"]] },
    });
  });

  it("refuses bad input with each field's message (the API's words) and the values sent", async () => {
    await createDiscountCode({ code: "TAKEN", type: "fixed", value: 5 });
    const response = await run(
      discountsAction,
      formWithLists(
        "/admin/discounts?panel=new",
        { ...SUMMER, code: "no spaces", value: "ten", usageLimit: "0" },
        { categories: ["men"] },
        callers.admin,
      ),
    );
    expect(response.status).toBe(400);
    const reply = (await response.json()) as FormReply;
    expect(reply.form).toBe("new");
    expect(reply.errors).toEqual({
      code: ["code must be 1 to 40 letters, digits, - or _"],
      value: ["value must be an amount such as 4.95"],
      usageLimit: ["usageLimit must be a whole number of at least 1"],
    });
    expect(reply.values).toMatchObject({ code: "no spaces", value: "ten", categories: ["men"] });

    // The rules across fields speak once each field is fine on its own.
    const across = await run(
      discountsAction,
      formRequest(
        "/admin/discounts?panel=new",
        { ...SUMMER, value: "150", endsAt: "2026-05-01T00:00" },
        callers.admin,
      ),
    );
    expect(across.status).toBe(400);
    expect(((await across.json()) as FormReply).errors).toEqual({
      value: ["A percent value can be at most 100"],
      endsAt: ["endsAt must be after startsAt"],
    });

    const taken = await run(
      discountsAction,
      formRequest("/admin/discounts?panel=new", { ...SUMMER, code: "taken" }, callers.admin),
    );
    expect(taken.status).toBe(400);
    expect(((await taken.json()) as FormReply).errors.code).toEqual([
      "A discount code with this name exists already (codes do not differ by case)",
    ]);
    expect((await listDiscountCodes()).map((code) => code.code)).toEqual(["TAKEN"]);
  });

  it("edits every field: blanks clear the limits and dates, unticked boxes clear the lists and deactivate", async () => {
    const code = await createDiscountCode({
      code: "SUMMER10",
      type: "percent",
      value: 10,
      minSubtotal: 20,
      startsAt: "2026-06-01T00:00:00Z",
      endsAt: "2026-08-31T23:59:00Z",
      usageLimit: 100,
      perCustomerLimit: 1,
      categories: ["men"],
      brands: ["nike"],
    });
    const response = await run(
      discountsAction,
      formRequest(
        `/admin/discounts?edit=${code._id}`,
        {
          intent: "update",
          id: code._id,
          code: "FIVEOFF",
          type: "fixed",
          value: "5",
          minSubtotal: "",
          startsAt: "",
          endsAt: "2027-01-01T12:30",
          usageLimit: "",
          perCustomerLimit: "",
        },
        callers.admin,
      ),
    );
    expect(response.status).toBe(302);
    expect(flashOf(response)?.message).toBe("Discount code updated");
    expect(await getDiscountCode(code._id)).toMatchObject({
      code: "FIVEOFF",
      type: "fixed",
      value: 5,
      minSubtotal: 0,
      startsAt: null,
      endsAt: "2027-01-01T12:30:00.000Z",
      usageLimit: null,
      perCustomerLimit: null,
      categories: [],
      brands: [],
      active: false,
    });
    expect((await historyOf("discountCode", code._id))[0]).toMatchObject({
      action: "update",
      changes: { code: ["SUMMER10", "FIVEOFF"], active: [true, false], brands: [["nike"], []] },
    });

    const refused = await run(
      discountsAction,
      formRequest(
        `/admin/discounts?edit=${code._id}`,
        { intent: "update", id: code._id, code: "FIVEOFF", type: "fixed", value: "0", startsAt: "soon" },
        callers.admin,
      ),
    );
    expect(refused.status).toBe(400);
    const reply = (await refused.json()) as FormReply;
    expect(reply.form).toBe(code._id);
    expect(reply.errors).toMatchObject({
      value: ["value must be above 0"],
      startsAt: ["startsAt must be a date such as 2026-12-31 or 2026-12-31T23:59:00Z"],
    });
    expect((await getDiscountCode(code._id)).value).toBe(5);
  });

  it("refuses a percent above 100 (100.001 too) and a date outside 1900 to 9999, naming the field, on the API and the page", async () => {
    const apiCreate = (body: Record<string, unknown>) =>
      run(discountsApi, jsonRequest("/api/admin/discounts", { json: body, cookie: callers.admin }));
    for (const [body, field, message] of [
      [{ code: "P1", type: "percent", value: 100.001 }, "value", "value must be an amount such as 4.95"],
      [{ code: "P2", type: "percent", value: 100.01 }, "value", "A percent value can be at most 100"],
      [
        { code: "P3", type: "fixed", value: 5, startsAt: "0000-01-01" },
        "startsAt",
        "startsAt must be a date from 1900-01-01 to 9999-12-31",
      ],
      [
        { code: "P4", type: "fixed", value: 5, endsAt: "+010000-01-01T00:00:00Z" },
        "endsAt",
        "endsAt must be a date from 1900-01-01 to 9999-12-31",
      ],
    ] as const) {
      const refused = await apiCreate(body);
      expect(refused.status).toBe(400);
      expect((await readApi(refused)).errors).toEqual({ [field]: [message] });
    }
    const full = await apiCreate({
      code: "ALL",
      type: "percent",
      value: 100,
      endsAt: "9999-12-31T23:59:00Z",
    });
    expect(full.status).toBe(201);

    for (const [form, field, message] of [
      [{ value: "100.001" }, "value", "value must be an amount such as 4.95"],
      [{ value: "100.01" }, "value", "A percent value can be at most 100"],
      [{ startsAt: "0000-01-01T00:00" }, "startsAt", "startsAt must be a date from 1900-01-01 to 9999-12-31"],
    ] as const) {
      const page = await run(
        discountsAction,
        formRequest("/admin/discounts?panel=new", { ...SUMMER, ...form }, callers.admin),
      );
      expect(page.status).toBe(400);
      expect(((await page.json()) as FormReply).errors).toEqual({ [field]: [message] });
    }
    expect((await listDiscountCodes()).map((code) => code.code)).toEqual(["ALL"]);
  });

  it("deletes a code (on record); a second delete comes back with a message", async () => {
    const code = await createDiscountCode({ code: "GONE", type: "fixed", value: 5 });
    const response = await run(
      discountsAction,
      formRequest("/admin/discounts", { intent: "delete", id: code._id }, callers.admin),
    );
    expect(response.status).toBe(302);
    expect(flashOf(response)).toEqual({ type: "success", message: "Discount code deleted" });
    expect(await listDiscountCodes()).toEqual([]);
    expect((await historyOf("discountCode", code._id))[0]).toMatchObject({
      action: "delete",
      changes: { code: ["GONE", null] },
    });
    const again = await run(
      discountsAction,
      formRequest("/admin/discounts", { intent: "delete", id: code._id }, callers.admin),
    );
    expect(flashOf(again)).toEqual({ type: "error", message: "Discount code not found" });
  });

  it("writes no entry when a change is refused: the entry shares the change's transaction", async () => {
    await createDiscountCode({ code: "TAKEN", type: "fixed", value: 5 });
    const before = await getDb().sequelize.query(`SELECT count(*)::int AS n FROM audit_log`, { plain: true });
    await run(discountsAction, formRequest("/admin/discounts", { ...SUMMER, code: "TAKEN" }, callers.admin));
    const after = await getDb().sequelize.query(`SELECT count(*)::int AS n FROM audit_log`, { plain: true });
    expect(after).toEqual(before);
  });
});
