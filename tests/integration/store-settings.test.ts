import { beforeEach, describe, expect, it } from "vitest";
import { action as settingsApi, loader as settingsApiGet } from "../../app/routes/api.admin.settings";
import { action as settingsPage, loader as settingsPageLoader } from "../../app/routes/admin.settings";
import { getStoreSettings, STORE_SETTINGS_AUDIT_ID } from "../../app/services/store-settings.server";
import { SETTINGS_TEXT } from "../../app/lib/shared/store-settings";
import { resetDatabase } from "../support/database";
import { callRoute } from "../support/requests";
import { auditEntries, backOffice } from "./staff-support";

/**
 * The owner's store settings (API.md, "Open storefront and guest checkout"): who may browse and
 * whether guests may buy, read with every default filled in, changed through the API and a page
 * that works without JavaScript, each change on the audit log, a stale version refused.
 */

let admin: string;

beforeEach(async () => {
  await resetDatabase();
  admin = (await backOffice("admin")).cookie;
});

interface SettingsAnswer {
  success: boolean;
  message?: string;
  errors?: Record<string, string[]>;
  data: { storefront: string; guestCheckout: boolean; version: number; updatedAt: string };
}

const put = (json: unknown, cookie = admin) =>
  callRoute(settingsApi, "/api/admin/settings", { method: "PUT", json, cookie });

const pagePost = (form: Record<string, string>, cookie = admin) =>
  callRoute(settingsPage, "/admin/settings", { form, cookie });

describe("store settings through the API", () => {
  it("reads as SPEC.md's shop on a fresh install: members only, no guest checkout, version 1", async () => {
    const answer = await callRoute(settingsApiGet, "/api/admin/settings", { cookie: admin });
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as SettingsAnswer;
    expect(body.data).toMatchObject({ storefront: "members", guestCheckout: false, version: 1 });
  });

  it("changes the settings sent, keeps the others, moves the version on and records who changed what", async () => {
    const { user, cookie } = await backOffice("staff", ["settings"]);
    const opened = await put({ storefront: "open", version: 1 }, cookie);
    expect(opened.status).toBe(200);
    const first = (await opened.json()) as SettingsAnswer;
    expect(first.message).toBe(SETTINGS_TEXT.updated);
    expect(first.data).toMatchObject({ storefront: "open", guestCheckout: false, version: 2 });

    const guests = (await (await put({ guestCheckout: true })).json()) as SettingsAnswer;
    expect(guests.data).toMatchObject({ storefront: "open", guestCheckout: true, version: 3 });
    expect(await getStoreSettings()).toMatchObject({ storefront: "open", guestCheckout: true, version: 3 });

    const entries = await auditEntries(STORE_SETTINGS_AUDIT_ID);
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({
      action: "update",
      entity: "settings",
      actorId: user.id,
      changes: { storefront: ["members", "open"] },
    });
    expect(entries[1]!.changes).toEqual({ guestCheckout: [false, true] });
  });

  it("refuses guest checkout without the open storefront, naming the field, and changes nothing", async () => {
    const refused = await put({ guestCheckout: true });
    expect(refused.status).toBe(400);
    const body = (await refused.json()) as SettingsAnswer;
    expect(body.message).toBe(SETTINGS_TEXT.guestNeedsOpen);
    expect(body.errors?.guestCheckout).toEqual([SETTINGS_TEXT.guestNeedsOpen]);

    await put({ storefront: "open", guestCheckout: true });
    const back = await put({ storefront: "members" });
    expect(back.status).toBe(400);
    expect(await getStoreSettings()).toMatchObject({ storefront: "open", guestCheckout: true, version: 2 });
    expect(await auditEntries(STORE_SETTINGS_AUDIT_ID)).toHaveLength(1);
  });

  it("refuses a value out of its list and a flag that is not true or false with the field's message", async () => {
    const refused = await put({ storefront: "everyone", guestCheckout: "maybe" });
    expect(refused.status).toBe(400);
    const body = (await refused.json()) as SettingsAnswer;
    expect(body.errors?.storefront).toEqual(["storefront must be one of members, open"]);
    expect(body.errors?.guestCheckout).toEqual(["guestCheckout must be true or false"]);
    expect((await getStoreSettings()).version).toBe(1);
  });

  it("answers 409 to a change based on an older version and keeps the newer one", async () => {
    await put({ storefront: "open", version: 1 });
    const stale = await put({ storefront: "members", version: 1 });
    expect(stale.status).toBe(409);
    expect(await getStoreSettings()).toMatchObject({ storefront: "open", version: 2 });
  });

  it("lets exactly one of many changes based on one version through, under concurrency", async () => {
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => put({ storefront: "open", guestCheckout: true, version: 1 })),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
    expect(await getStoreSettings()).toMatchObject({ storefront: "open", guestCheckout: true, version: 2 });
    expect(await auditEntries(STORE_SETTINGS_AUDIT_ID)).toHaveLength(1);
  });

  it("writes nothing for a change that changes nothing", async () => {
    const same = await put({ storefront: "members", guestCheckout: false });
    expect(same.status).toBe(200);
    expect(((await same.json()) as SettingsAnswer).data.version).toBe(1);
    expect(await auditEntries(STORE_SETTINGS_AUDIT_ID)).toHaveLength(0);
  });
});

describe("the settings page without JavaScript", () => {
  it("shows the settings and saves the form, an unticked box meaning no", async () => {
    const page = await callRoute(settingsPageLoader, "/admin/settings", { cookie: admin });
    expect(page.status).toBe(200);
    expect(await page.json()).toMatchObject({ settings: { storefront: "members", guestCheckout: false } });

    const saved = await pagePost({ storefront: "open", guestCheckout: "on", version: "1" });
    expect(saved.status).toBe(302);
    expect(saved.headers.get("Location")).toBe("/admin/settings");
    expect(await getStoreSettings()).toMatchObject({ storefront: "open", guestCheckout: true, version: 2 });

    await pagePost({ storefront: "open", version: "2" });
    expect(await getStoreSettings()).toMatchObject({ storefront: "open", guestCheckout: false, version: 3 });
  });

  it("sends a refused form back with what was sent and the message beside its field", async () => {
    const refused = await pagePost({ storefront: "members", guestCheckout: "on", version: "1" });
    expect(refused.status).toBe(400);
    const reply = (await refused.json()) as {
      form: string;
      values: Record<string, string>;
      errors: Record<string, string[]>;
    };
    expect(reply.form).toBe("settings");
    expect(reply.values).toMatchObject({ storefront: "members", guestCheckout: "on" });
    expect(reply.errors.guestCheckout).toEqual([SETTINGS_TEXT.guestNeedsOpen]);
    expect((await getStoreSettings()).version).toBe(1);
  });

  it("refuses a form based on an older version and offers the current one", async () => {
    await put({ storefront: "open" });
    const stale = await pagePost({ storefront: "members", version: "1" });
    expect(stale.status).toBe(409);
    expect(await stale.json()).toMatchObject({ form: "settings", stale: true });
    expect((await getStoreSettings()).storefront).toBe("open");
  });
});
