import { beforeEach, describe, expect, it } from "vitest";
import { getConfig } from "../../app/lib/server/config.server";
import { getDb } from "../../app/models/db.server";
import { REGISTER_LIMIT_DURATION } from "../../app/services/rate-limit.server";
import { action as apiRegister } from "../../app/routes/api.auth.register";
import { action as formRegister } from "../../app/routes/auth.register";
import { resetDatabase } from "../support/database";
import { callRoute } from "../support/requests";

const LIMIT = getConfig().registerLimitPerHour;

function registerByApi(index: number, clientIp = "203.0.113.20") {
  return callRoute(apiRegister, "/api/auth/register", {
    json: { userName: `Shopper ${index}`, email: `new-${index}@example.com`, password: "secret-pass-1" },
    context: { clientIp },
  });
}

function registerByForm(index: number, clientIp = "203.0.113.20") {
  return callRoute(formRegister, "/auth/register", {
    form: { userName: `Shopper ${index}`, email: `form-${index}@example.com`, password: "secret-pass-1" },
    context: { clientIp },
  });
}

function expectRetryAfter(response: Response) {
  const seconds = Number(response.headers.get("Retry-After"));
  expect(Number.isInteger(seconds)).toBe(true);
  expect(seconds).toBeGreaterThan(0);
  expect(seconds).toBeLessThanOrEqual(REGISTER_LIMIT_DURATION);
}

describe("registration is throttled per client", () => {
  beforeEach(resetDatabase);

  it(`${LIMIT * 5} parallel API registrations from one client create exactly ${LIMIT} accounts`, async () => {
    const responses = await Promise.all(
      Array.from({ length: LIMIT * 5 }, (_, index) => registerByApi(index)),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(LIMIT);
    expect(statuses.filter((status) => status === 429)).toHaveLength(LIMIT * 4);
    expect(await getDb().models.User.count()).toBe(LIMIT);
    const refused = responses.find((response) => response.status === 429)!;
    expectRetryAfter(refused);
    const body = (await refused.json()) as { success: boolean; message: string };
    expect(body).toMatchObject({ success: false });
    expect(body.message).toMatch(/too many registrations.*try again in \d+ minutes?/i);
  });

  it("another client can still register while one is throttled", async () => {
    for (let index = 0; index < LIMIT; index += 1) expect((await registerByApi(index)).status).toBe(201);
    expect((await registerByApi(LIMIT)).status).toBe(429);
    expect((await registerByApi(LIMIT + 1, "198.51.100.7")).status).toBe(201);
  });

  it("the sign-up form shares the allowance and shows the API's message with Retry-After", async () => {
    for (let index = 0; index < LIMIT; index += 1) {
      expect((await registerByForm(index)).status).toBe(302);
    }
    const response = await registerByForm(LIMIT);
    expect(response.status).toBe(429);
    expectRetryAfter(response);
    const page = (await response.json()) as {
      result: { error: Record<string, string[]> };
      toast: { message: string };
    };
    const api = (await (await registerByApi(LIMIT + 1)).json()) as { message: string };
    expect(page.toast.message).toBe(api.message);
    expect(page.result.error[""]).toEqual([api.message]);
    expect(await getDb().models.User.count()).toBe(LIMIT);
  });

  it("invalid sign-ups do not use up the allowance", async () => {
    for (let index = 0; index < LIMIT * 2; index += 1) {
      const response = await callRoute(apiRegister, "/api/auth/register", {
        json: { userName: "", email: "not-an-email", password: "x" },
        context: { clientIp: "203.0.113.20" },
      });
      expect(response.status).toBe(400);
    }
    expect((await registerByApi(1)).status).toBe(201);
  });
});
