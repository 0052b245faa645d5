import { beforeEach, describe, expect, it } from "vitest";
import { setQueryListener } from "../../app/models/db.server";
import { oncePerRequest, runInRequestScope } from "../../app/lib/request-scope.server";
import { getSessionUser } from "../../app/web/session.server";
import { createTestUser, resetDatabase } from "../support/database";
import { buildRequest, sessionCookieFor } from "../support/requests";

async function countQueries<T>(work: () => Promise<T>): Promise<{ result: T; queries: number }> {
  let queries = 0;
  setQueryListener(() => queries++);
  try {
    return { result: await work(), queries };
  } finally {
    setQueryListener(undefined);
  }
}

describe("values computed once per request", () => {
  beforeEach(resetDatabase);

  it("computes once inside one request scope and again in the next", async () => {
    let computed = 0;
    const compute = () => ++computed;
    const first = runInRequestScope(() => [oncePerRequest("k", compute), oncePerRequest("k", compute)]);
    const second = runInRequestScope(() => oncePerRequest("k", compute));
    expect(first).toEqual([1, 1]);
    expect(second).toBe(2);
  });

  it("caches nothing outside a request scope", () => {
    let computed = 0;
    oncePerRequest("k", () => ++computed);
    oncePerRequest("k", () => ++computed);
    expect(computed).toBe(2);
  });

  it("looks the session user up with one query for all loaders of a request, though each gets its own Request", async () => {
    const user = await createTestUser();
    const cookie = await sessionCookieFor(user.id);
    const { result, queries } = await countQueries(() =>
      runInRequestScope(async () =>
        Promise.all([
          getSessionUser(buildRequest("/shop/home", { cookie })),
          getSessionUser(buildRequest("/shop/home?_data=root", { cookie })),
          getSessionUser(buildRequest("/shop/home?_data=routes/shop", { cookie })),
        ]),
      ),
    );
    expect(result.map((found) => found?.id)).toEqual([user.id, user.id, user.id]);
    expect(queries).toBe(1);
  });

  it("answers each cookie for itself within one scope", async () => {
    const ann = await createTestUser({ userName: "Ann" });
    const bob = await createTestUser({ userName: "Bob" });
    const [forAnn, forBob, anonymous] = await runInRequestScope(async () =>
      Promise.all([
        getSessionUser(buildRequest("/", { cookie: await sessionCookieFor(ann.id) })),
        getSessionUser(buildRequest("/", { cookie: await sessionCookieFor(bob.id) })),
        getSessionUser(buildRequest("/")),
      ]),
    );
    expect([forAnn?.userName, forBob?.userName, anonymous]).toEqual(["Ann", "Bob", null]);
  });
});
