import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { getConfig, setConfig, type AppConfig } from "../../app/lib/server/config.server";
import { action, loader } from "../../app/routes/admin.webhooks";
import { listWebhookEndpoints } from "../../app/services/webhooks/endpoints.server";
import { createTestUser, resetDatabase } from "../support/database";
import { callRoute, sessionCookieFor } from "../support/requests";

/**
 * The webhooks admin page as a browser without JavaScript uses it: a plain
 * form that posts, the form again with the field's message on a refusal, and
 * the new endpoint's signing secret shown once by the answer to its form.
 */

let original: AppConfig;
let admin: string;

beforeEach(async () => {
  await resetDatabase();
  original = getConfig();
  admin = await sessionCookieFor((await createTestUser({ role: "admin" })).id);
});

afterEach(() => setConfig(original));

const form = (fields: Record<string, string>, events: string[] = []) => {
  const body = new URLSearchParams(fields);
  for (const event of events) body.append("events", event);
  return body.toString();
};

function post(body: string, cookie = admin) {
  return callRoute(action, "/admin/webhooks", {
    body,
    cookie,
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
  });
}

describe("the webhooks page without JavaScript", () => {
  it("sends a refused form back with the values and the field's message", async () => {
    const refused = await post(
      form({ intent: "create", url: "http://hooks.example.com/x", active: "on" }, ["order.paid"]),
    );
    expect(refused.status).toBe(400);
    const reply = (await refused.json()) as {
      form: string;
      values: Record<string, unknown>;
      errors: Record<string, string[]>;
    };
    expect(reply.form).toBe("new");
    expect(reply.values).toMatchObject({ url: "http://hooks.example.com/x", events: ["order.paid"] });
    expect(reply.errors.url![0]).toMatch(/https/);
    const noEvents = await post(form({ intent: "create", url: "https://hooks.example.com/x" }));
    expect(((await noEvents.json()) as { errors: Record<string, string[]> }).errors.events).toBeTruthy();
    expect(await listWebhookEndpoints()).toHaveLength(0);
  });

  it("adds an endpoint and shows its signing secret once, in the form's answer, never in a cookie", async () => {
    setConfig({ ...original, webhooks: { ...original.webhooks, allowHttp: true, allowPrivate: true } });
    const created = await post(
      form({ intent: "create", url: "http://127.0.0.1:9/hooks", active: "on" }, ["order.paid", "stock.low"]),
    );
    expect(created.status).toBe(200);
    const [endpoint] = await listWebhookEndpoints();
    expect(endpoint).toMatchObject({
      url: "http://127.0.0.1:9/hooks",
      events: ["order.paid", "stock.low"],
      active: true,
    });
    const reply = (await created.json()) as { created: { _id: string; url: string; secret: string } };
    expect(reply.created).toMatchObject({ _id: endpoint!._id, url: endpoint!.url });
    expect(reply.created.secret).toMatch(/^whsec_/);
    const setCookies = created.headers.getSetCookie().join("\n");
    expect(setCookies).not.toMatch(/__webhook_secret/);
    expect(setCookies).not.toContain(reply.created.secret.slice(6));
    // No later view of the page shows it.
    const page = await callRoute(loader, `/admin/webhooks?endpoint=${endpoint!._id}`, { cookie: admin });
    const shown = await page.text();
    expect(shown).toContain(endpoint!._id);
    expect(shown).not.toContain(reply.created.secret.slice(6));
  });

  it("switches an endpoint off by its form (the unticked box) and deletes it", async () => {
    setConfig({ ...original, webhooks: { ...original.webhooks, allowHttp: true, allowPrivate: true } });
    await post(form({ intent: "create", url: "http://127.0.0.1:9/hooks", active: "on" }, ["order.paid"]));
    const [endpoint] = await listWebhookEndpoints();
    const saved = await post(
      form({ intent: "update", id: endpoint!._id, url: endpoint!.url }, ["order.paid"]),
    );
    expect(saved.status).toBe(302);
    expect((await listWebhookEndpoints())[0]).toMatchObject({ active: false, disabledReason: null });
    const deleted = await post(form({ intent: "delete", id: endpoint!._id }));
    expect(deleted.status).toBe(302);
    expect(await listWebhookEndpoints()).toHaveLength(0);
  });
});
