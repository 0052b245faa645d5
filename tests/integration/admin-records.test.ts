import { beforeEach, describe, expect, it } from "vitest";
import { action, loader } from "../../app/routes/admin.taxes";
import type { AdminFormReply } from "../../app/lib/shared/admin-form";
import { VERSION_CONFLICT_MESSAGE } from "../../app/lib/shared/audit";
import { createTaxRate, getTaxRate, listTaxRates, updateTaxRate } from "../../app/services/tax-rates.server";
import { resetDatabase } from "../support/database";
import { createCallers, flashOf, formRequest, jsonRequest, run, type Callers } from "./admin-support";

/**
 * The admin's list-and-form pages' one helper (app/web/admin-form.server.ts,
 * recordAction and openedRecords), through the taxes page, whose rows carry a
 * version: the plain forms as a browser without JavaScript posts them.
 */

let callers: Callers;
beforeEach(async () => {
  await resetDatabase();
  callers = await createCallers();
});

const NY = { name: "NY State", country: "US", region: "NY", rate: 4, appliesTo: ["men"] };

function editForm(id: string, version: number, changes: Record<string, string> = {}) {
  return formRequest(
    `/admin/taxes?edit=${id}`,
    {
      intent: "update",
      id,
      version: String(version),
      name: "NY State",
      country: "US",
      region: "NY",
      rate: "4",
      appliesTo: "men",
      exemptBelow: "",
      ...changes,
    },
    callers.admin,
  );
}

describe("the list-and-form helper", () => {
  it("refuses an edit based on an old version with 409, keeping what the admin typed and the old version", async () => {
    const rate = await createTaxRate(NY);
    await updateTaxRate(rate._id, { rate: 5 }); // someone else saved meanwhile: version 2

    const refused = await run(action, editForm(rate._id, 1, { name: "NY (mine)", rate: "6.5" }));
    expect(refused.status).toBe(409);
    const reply = (await refused.json()) as AdminFormReply;
    expect(reply).toMatchObject({
      form: rate._id,
      message: VERSION_CONFLICT_MESSAGE,
      errors: {},
      stale: true,
      values: { name: "NY (mine)", rate: "6.5", version: "1", appliesTo: ["men"] },
    });
    expect(await getTaxRate(rate._id)).toMatchObject({ name: "NY State", rate: 5, version: 2 });

    // Based on the current version, the same edit is saved.
    const saved = await run(action, editForm(rate._id, 2, { name: "NY (mine)", rate: "6.5" }));
    expect(saved.status).toBe(302);
    expect(flashOf(saved)).toEqual({ type: "success", message: "Tax rate updated" });
    expect(await getTaxRate(rate._id)).toMatchObject({ name: "NY (mine)", rate: 6.5, version: 3 });
  });

  it("sends a refused field back beside its field, with the values sent, and marks nothing stale", async () => {
    const rate = await createTaxRate(NY);
    const refused = await run(action, editForm(rate._id, 1, { rate: "lots" }));
    expect(refused.status).toBe(400);
    const reply = (await refused.json()) as AdminFormReply;
    expect(reply.form).toBe(rate._id);
    expect(Object.keys(reply.errors)).toEqual(["rate"]);
    expect(reply.errors.rate![0]).toMatch(/rate/);
    expect(reply.message).toBeNull();
    expect(reply.stale).toBeUndefined();
    expect(reply.values).toMatchObject({ rate: "lots", name: "NY State" });
  });

  it("refuses a delete based on an old version with a message on the page, and deletes with the current one", async () => {
    const rate = await createTaxRate(NY);
    await updateTaxRate(rate._id, { rate: 5 });

    const stale = await run(
      action,
      formRequest("/admin/taxes", { intent: "delete", id: rate._id, version: "1" }, callers.admin),
    );
    expect(stale.status).toBe(302);
    expect(stale.headers.get("Location")).toBe("/admin/taxes");
    expect(flashOf(stale)).toEqual({ type: "error", message: VERSION_CONFLICT_MESSAGE });
    expect(await listTaxRates()).toHaveLength(1);

    const current = await run(
      action,
      formRequest("/admin/taxes", { intent: "delete", id: rate._id, version: "2" }, callers.admin),
    );
    expect(flashOf(current)).toEqual({ type: "success", message: "Tax rate deleted" });
    expect(await listTaxRates()).toHaveLength(0);
  });

  it("opens the forms the URL names, and sends a stale edit link back to the list with a message", async () => {
    const rate = await createTaxRate(NY);
    const page = await run(loader, jsonRequest(`/admin/taxes?edit=${rate._id}`, { cookie: callers.admin }));
    expect(await page.json()).toMatchObject({ editing: { _id: rate._id, version: 1 }, adding: false });
    const adding = await run(loader, jsonRequest("/admin/taxes?panel=new", { cookie: callers.admin }));
    expect(await adding.json()).toMatchObject({ editing: null, adding: true });

    const gone = await run(
      loader,
      jsonRequest("/admin/taxes?edit=00000000-0000-4000-8000-000000000000", { cookie: callers.admin }),
    );
    expect(gone.status).toBe(302);
    expect(gone.headers.get("Location")).toBe("/admin/taxes");
    expect(flashOf(gone)).toEqual({ type: "error", message: "Tax rate not found" });
  });

  it("answers an unknown intent with a message, changing nothing", async () => {
    const rate = await createTaxRate(NY);
    const response = await run(
      action,
      formRequest("/admin/taxes", { intent: "explode", id: rate._id }, callers.admin),
    );
    expect(response.status).toBe(302);
    expect(flashOf(response)).toEqual({ type: "error", message: "Unknown action" });
    expect(await getTaxRate(rate._id)).toMatchObject({ version: 1 });
  });
});
