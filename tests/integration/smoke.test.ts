import { beforeEach, describe, expect, it } from "vitest";
import { loader as checkAuth } from "../../app/routes/api.auth.check-auth";
import { createTestUser, resetDatabase } from "../support/database";
import { callRoute, sessionCookieFor } from "../support/requests";

describe("check-auth", () => {
  beforeEach(resetDatabase);

  it("answers 401 JSON for an anonymous caller", async () => {
    const response = await callRoute(checkAuth, "/api/auth/check-auth");
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ success: false, message: "Unauthorised user!" });
  });

  it("returns the session user with no-store caching", async () => {
    const user = await createTestUser({ userName: "Ann" });
    const response = await callRoute(checkAuth, "/api/auth/check-auth", {
      cookie: await sessionCookieFor(user.id),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("Cache-Control")).toBe("no-store");
    const body = await response.json();
    expect(body.user).toEqual({
      id: user.id,
      userName: "Ann",
      email: user.email,
      role: "user",
      twoFactorEnabled: false,
    });
  });
});
