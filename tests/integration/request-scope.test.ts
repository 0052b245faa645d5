import { beforeEach, describe, expect, it } from "vitest";
import { getDb, setQueryListener } from "../../app/models/db.server";
import { oncePerRequest, runInRequestScope } from "../../app/lib/server/request-scope.server";
import { getSessionUser, getSessionUserAndCart } from "../../app/web/session.server";
import { addToCart } from "../../app/services/cart-lines.server";
import { createProduct } from "../support/storefront";
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

  it("reads the shopper and their cart in one query, and the session guards of the request reuse it", async () => {
    const user = await createTestUser();
    const product = await createProduct({ title: "Wool scarf" });
    await addToCart(user.id, product.id, 2);
    const cookie = await sessionCookieFor(user.id);
    const { result, queries } = await countQueries(() =>
      runInRequestScope(async () =>
        Promise.all([
          getSessionUserAndCart(buildRequest("/shop/listing?_data=routes/shop", { cookie })),
          getSessionUser(buildRequest("/shop/listing?_data=routes/shop", { cookie })),
          getSessionUser(buildRequest("/shop/listing?_data=routes/shop.listing", { cookie })),
        ]),
      ),
    );
    const [viewer, layoutUser, pageUser] = result;
    expect(viewer?.user).toEqual({ id: user.id, userName: user.userName, email: user.email, role: "user" });
    expect(viewer?.cart.items.map((item) => [item.title, item.quantity])).toEqual([["Wool scarf", 2]]);
    expect([layoutUser?.id, pageUser?.id]).toEqual([user.id, user.id]);
    expect(queries).toBe(1);
  });

  it("gives a shopper without a cart an empty one, and nobody for an unknown or expired session", async () => {
    const user = await createTestUser();
    const cookie = await sessionCookieFor(user.id);
    const viewer = await runInRequestScope(() => getSessionUserAndCart(buildRequest("/", { cookie })));
    expect(viewer?.cart).toEqual({ _id: null, userId: user.id, items: [], notices: [], discountCode: null });
    await getDb().models.Session.update(
      { expiresAt: new Date(Date.now() - 1000) },
      { where: { userId: user.id } },
    );
    expect(await runInRequestScope(() => getSessionUserAndCart(buildRequest("/", { cookie })))).toBeNull();
    expect(await runInRequestScope(() => getSessionUserAndCart(buildRequest("/")))).toBeNull();
  });

  it("reads the cart afresh when the session was looked up before it (an action ran first)", async () => {
    const user = await createTestUser();
    const product = await createProduct();
    const cookie = await sessionCookieFor(user.id);
    const { result, queries } = await countQueries(() =>
      runInRequestScope(async () => {
        // The action: its guard reads the session, then it changes the cart.
        await getSessionUser(buildRequest("/shop/listing", { cookie }));
        await addToCart(user.id, product.id, 1);
        // The loaders after it.
        return getSessionUserAndCart(buildRequest("/shop/listing", { cookie }));
      }),
    );
    expect(result?.cart.items.map((item) => item.productId)).toEqual([product.id]);
    // session; the add's statements; session with cart
    expect(queries).toBeGreaterThan(2);
  });
});
