import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "../../app/models/db.server";
import { isAppError } from "../../app/lib/server/errors.server";
import { readFlash } from "../../app/web/session.server";
import { action as reviewAddApi, loader as reviewAddGet } from "../../app/routes/api.shop.review.add";
import { loader as reviewListApi } from "../../app/routes/api.shop.review.$productId";
import { action as productPageAction } from "../../app/routes/shop.product.$id";
import { action as listingAction } from "../../app/routes/shop.listing";
import { addReview } from "../../app/services/reviews.server";
import { createTestUser, resetDatabase } from "../support/database";
import { buildRequest, callRoute, cookieFrom, sessionCookieFor } from "../support/requests";
import { createOrder, createProduct } from "../support/storefront";

async function averageOf(productId: string) {
  const row = await getDb().models.Product.findByPk(productId, { attributes: ["averageReview"], raw: true });
  return Number(row?.averageReview);
}

/** The AppError a promise rejects with (status and message). */
async function refusal(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    if (isAppError(error)) return { status: error.status, message: error.message, errors: error.fieldErrors };
    throw error;
  }
  throw new Error("expected a refusal");
}

describe("addReview: the rules of SPEC §5 and API.md", () => {
  beforeEach(resetDatabase);

  it("lets a shopper with a paid order containing the product review it once, and recomputes the average", async () => {
    const product = await createProduct();
    const ann = await createTestUser({ userName: "Ann" });
    const bob = await createTestUser({ userName: "Bob" });
    await createOrder(ann.id, [product.id], "paid");
    await createOrder(bob.id, [product.id], "paid");

    const review = await addReview(ann, {
      productId: product.id,
      reviewValue: 4,
      reviewMessage: "  Nice fit  ",
    });
    expect(review).toMatchObject({
      productId: product.id,
      userId: ann.id,
      userName: "Ann",
      reviewMessage: "Nice fit",
      reviewValue: 4,
    });
    expect(await averageOf(product.id)).toBe(4);

    await addReview(bob, { productId: product.id, reviewValue: 5, reviewMessage: "Great" });
    expect(await averageOf(product.id)).toBe(4.5);
  });

  it("rounds the average to two decimals", async () => {
    const product = await createProduct();
    for (const value of [5, 4, 4]) {
      const user = await createTestUser();
      await createOrder(user.id, [product.id]);
      await addReview(user, { productId: product.id, reviewValue: value, reviewMessage: "ok" });
    }
    expect(await averageOf(product.id)).toBe(4.33);
  });

  it('refuses a shopper without a paid order of the product: 403 "You need to purchase product to review it."', async () => {
    const product = await createProduct();
    const other = await createProduct();
    const ann = await createTestUser();
    const bob = await createTestUser();
    const expected = { status: 403, message: "You need to purchase product to review it." };
    const attempt = () => addReview(ann, { productId: product.id, reviewValue: 5, reviewMessage: "x" });

    expect(await refusal(attempt())).toMatchObject(expected); // no order at all
    await createOrder(ann.id, [product.id], "pending");
    await createOrder(ann.id, [product.id], "failed");
    await createOrder(ann.id, [product.id], "refunded");
    expect(await refusal(attempt())).toMatchObject(expected); // orders, none paid
    await createOrder(ann.id, [other.id], "paid");
    expect(await refusal(attempt())).toMatchObject(expected); // paid, another product
    await createOrder(bob.id, [product.id], "paid");
    expect(await refusal(attempt())).toMatchObject(expected); // somebody else's paid order
    expect(await getDb().models.Review.count()).toBe(0);
  });

  it('refuses a second review of the same product: 409 "You already reviewed this product!"', async () => {
    const product = await createProduct();
    const ann = await createTestUser();
    await createOrder(ann.id, [product.id]);
    await addReview(ann, { productId: product.id, reviewValue: 5, reviewMessage: "first" });
    expect(
      await refusal(addReview(ann, { productId: product.id, reviewValue: 1, reviewMessage: "second" })),
    ).toEqual({ status: 409, message: "You already reviewed this product!", errors: undefined });
    expect(await averageOf(product.id)).toBe(5);
  });

  it("lets only one of two simultaneous reviews by one shopper through", async () => {
    const product = await createProduct();
    const ann = await createTestUser();
    await createOrder(ann.id, [product.id]);
    const results = await Promise.allSettled(
      [2, 4].map((value) =>
        addReview(ann, { productId: product.id, reviewValue: value, reviewMessage: "race" }),
      ),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const rejected = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(rejected.reason).toMatchObject({ status: 409 });
    expect(await getDb().models.Review.count()).toBe(1);
  });

  it("keeps the average right when many shoppers review at once", async () => {
    const product = await createProduct();
    const values = [1, 2, 3, 4, 5, 5];
    const users = await Promise.all(values.map(() => createTestUser()));
    for (const user of users) await createOrder(user.id, [product.id]);
    await Promise.all(
      users.map((user, index) =>
        addReview(user, { productId: product.id, reviewValue: values[index], reviewMessage: "concurrent" }),
      ),
    );
    expect(await averageOf(product.id)).toBe(3.33);
  });

  it("validates the rating: required, a whole number from 1 to 5", async () => {
    const product = await createProduct();
    const ann = await createTestUser();
    await createOrder(ann.id, [product.id]);
    const missing = await refusal(addReview(ann, { productId: product.id, reviewMessage: "x" }));
    expect(missing).toMatchObject({ status: 400, message: "Please select a rating" });
    expect(missing.errors?.reviewValue).toEqual(["Please select a rating"]);
    for (const reviewValue of [0, 6, 2.5, -1, "5", null, true]) {
      const result = await refusal(
        addReview(ann, { productId: product.id, reviewValue, reviewMessage: "x" }),
      );
      expect(result.status, String(reviewValue)).toBe(400);
      expect(Object.keys(result.errors ?? {})).toEqual(["reviewValue"]);
    }
  });

  it("validates the message: required after trimming, at most 1000 characters", async () => {
    const product = await createProduct();
    const ann = await createTestUser();
    await createOrder(ann.id, [product.id]);
    for (const reviewMessage of [undefined, "", "   \n\t "]) {
      expect(
        await refusal(addReview(ann, { productId: product.id, reviewValue: 3, reviewMessage })),
      ).toMatchObject({ status: 400, message: "Please write a review message" });
    }
    const long = await refusal(
      addReview(ann, { productId: product.id, reviewValue: 3, reviewMessage: "x".repeat(1001) }),
    );
    expect(long).toMatchObject({ status: 400, message: "A review can be at most 1000 characters" });
    await addReview(ann, { productId: product.id, reviewValue: 3, reviewMessage: ` ${"x".repeat(1000)} ` });
  });

  it("refuses NUL and other control characters in the message with a 400 that says so", async () => {
    const product = await createProduct();
    const ann = await createTestUser();
    await createOrder(ann.id, [product.id]);
    for (const reviewMessage of ["Great\u0000fit", "Great\u0007fit"]) {
      expect(
        await refusal(addReview(ann, { productId: product.id, reviewValue: 4, reviewMessage })),
      ).toMatchObject({ status: 400, message: "A review cannot contain control characters (such as NUL)" });
    }
    await addReview(ann, {
      productId: product.id,
      reviewValue: 4,
      reviewMessage: "Great fit.\nTrue to size.",
    });
  });

  it('answers "Missing required information" without a product id and 404 for an unknown one', async () => {
    const ann = await createTestUser();
    expect(await refusal(addReview(ann, { reviewValue: 3, reviewMessage: "x" }))).toMatchObject({
      status: 400,
      message: "Missing required information",
    });
    for (const productId of ["00000000-0000-4000-8000-000000000000", "nope"]) {
      expect(await refusal(addReview(ann, { productId, reviewValue: 3, reviewMessage: "x" }))).toMatchObject({
        status: 404,
        message: "Product not found",
      });
    }
  });
});

describe("POST /api/shop/review/add", () => {
  beforeEach(resetDatabase);

  const post = (json: unknown, cookie?: string) =>
    callRoute(reviewAddApi, "/api/shop/review/add", { method: "POST", json, cookie });

  it("adds the review of the signed-in shopper: 201 with the message and the review", async () => {
    const product = await createProduct();
    const ann = await createTestUser({ userName: "Ann" });
    await createOrder(ann.id, [product.id]);
    const response = await post(
      {
        productId: product.id,
        userId: ann.id,
        userName: "Somebody Else",
        reviewMessage: " Lovely ",
        reviewValue: 5,
      },
      await sessionCookieFor(ann.id),
    );
    expect(response.status).toBe(201);
    const body = await response.json();
    expect(body).toMatchObject({
      success: true,
      message: "Review added successfully!",
      data: {
        productId: product.id,
        userId: ann.id,
        userName: "Ann",
        reviewMessage: "Lovely",
        reviewValue: 5,
      },
    });
    expect(body.data._id).toEqual(expect.any(String));
  });

  it('answers 401 "Please login to add a review" to an anonymous caller', async () => {
    const response = await post({ productId: "x", reviewValue: 5, reviewMessage: "x" });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ success: false, message: "Please login to add a review" });
  });

  it("answers 403 to an admin and to a shopper who sends another user's id", async () => {
    const product = await createProduct();
    const admin = await createTestUser({ role: "admin" });
    const ann = await createTestUser();
    const bob = await createTestUser();
    await createOrder(ann.id, [product.id]);
    const body = { productId: product.id, reviewValue: 5, reviewMessage: "x" };
    expect((await post(body, await sessionCookieFor(admin.id))).status).toBe(403);
    const impostor = await post({ ...body, userId: bob.id }, await sessionCookieFor(ann.id));
    expect(impostor.status).toBe(403);
    expect(await getDb().models.Review.count()).toBe(0);
  });

  it("answers the rules' statuses as JSON: 400 with field errors, 403, 409", async () => {
    const product = await createProduct();
    const ann = await createTestUser();
    const cookie = await sessionCookieFor(ann.id);

    const invalid = await post({ productId: product.id, reviewValue: 9, reviewMessage: " " }, cookie);
    expect(invalid.status).toBe(400);
    const invalidBody = await invalid.json();
    expect(invalidBody.success).toBe(false);
    expect(Object.keys(invalidBody.errors).sort()).toEqual(["reviewMessage", "reviewValue"]);

    const notBought = await post({ productId: product.id, reviewValue: 4, reviewMessage: "ok" }, cookie);
    expect(notBought.status).toBe(403);
    expect((await notBought.json()).message).toBe("You need to purchase product to review it.");

    await createOrder(ann.id, [product.id]);
    expect((await post({ productId: product.id, reviewValue: 4, reviewMessage: "ok" }, cookie)).status).toBe(
      201,
    );
    const again = await post({ productId: product.id, reviewValue: 4, reviewMessage: "ok" }, cookie);
    expect(again.status).toBe(409);
    expect((await again.json()).message).toBe("You already reviewed this product!");
  });

  it("answers 415 to a form body, 400 to malformed JSON and 405 to GET", async () => {
    const ann = await createTestUser();
    const cookie = await sessionCookieFor(ann.id);
    const form = await callRoute(reviewAddApi, "/api/shop/review/add", {
      method: "POST",
      form: { productId: "x" },
      cookie,
    });
    expect(form.status).toBe(415);
    const broken = await callRoute(reviewAddApi, "/api/shop/review/add", {
      method: "POST",
      body: "{not json",
      headers: { "Content-Type": "application/json" },
      cookie,
    });
    expect(broken.status).toBe(400);
    expect((await callRoute(reviewAddGet, "/api/shop/review/add")).status).toBe(405);
  });
});

describe("GET /api/shop/review/{productId}", () => {
  beforeEach(resetDatabase);

  it("lists a product's reviews to anyone, newest first, with pagination", async () => {
    const product = await createProduct();
    const names = ["First", "Second", "Third"];
    for (const userName of names) {
      const user = await createTestUser({ userName });
      await createOrder(user.id, [product.id]);
      await addReview(user, { productId: product.id, reviewValue: 3, reviewMessage: userName });
    }
    const response = await callRoute(reviewListApi, `/api/shop/review/${product.id}?limit=2`, {
      params: { productId: product.id },
    });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.success).toBe(true);
    expect(body.data.map((r: { userName: string }) => r.userName)).toEqual(["Third", "Second"]);
    expect(Object.keys(body.data[0]).sort()).toEqual(
      ["_id", "createdAt", "productId", "reviewMessage", "reviewValue", "userId", "userName"].sort(),
    );
    expect(body.pagination).toEqual({ page: 1, limit: 2, total: 3, pages: 2 });
  });

  it("answers an empty list for a product without reviews and 404 for an unknown product", async () => {
    const product = await createProduct();
    const empty = await callRoute(reviewListApi, `/api/shop/review/${product.id}`, {
      params: { productId: product.id },
    });
    expect(await empty.json()).toMatchObject({ success: true, data: [], pagination: { total: 0 } });
    for (const productId of ["00000000-0000-4000-8000-000000000000", "bad"]) {
      const response = await callRoute(reviewListApi, `/api/shop/review/${productId}`, {
        params: { productId },
      });
      expect(response.status).toBe(404);
    }
  });
});

describe("the review form (HTML action)", () => {
  beforeEach(resetDatabase);

  async function flashOf(response: Response) {
    const { flash } = await readFlash(buildRequest("/", { cookie: cookieFrom(response) }));
    return flash;
  }

  it("saves the review and redirects back to the same page with a flash message", async () => {
    const product = await createProduct();
    const ann = await createTestUser();
    await createOrder(ann.id, [product.id]);
    const path = `/shop/listing?category=men&page=2&product=${product.id}`;
    const response = await callRoute(listingAction, path, {
      form: { intent: "review", productId: product.id, reviewValue: "4", reviewMessage: " Good " },
      cookie: await sessionCookieFor(ann.id),
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(path);
    expect(await flashOf(response)).toEqual({ type: "success", message: "Review added successfully!" });
    expect(await averageOf(product.id)).toBe(4);
  });

  it("answers 400 with the spec's messages for a missing rating and a blank message", async () => {
    const product = await createProduct();
    const ann = await createTestUser();
    await createOrder(ann.id, [product.id]);
    const response = await callRoute(productPageAction, `/shop/product/${product.id}`, {
      form: { intent: "review", productId: product.id, reviewMessage: "   " },
      cookie: await sessionCookieFor(ann.id),
      params: { id: product.id },
    });
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.toast).toEqual({ type: "error", message: "Please select a rating" });
    expect(body.result.error).toEqual({
      reviewValue: ["Please select a rating"],
      reviewMessage: ["Please write a review message"],
    });
    expect(await getDb().models.Review.count()).toBe(0);
  });

  it("answers 403 with the purchase message when the shopper has not bought it", async () => {
    const product = await createProduct();
    const ann = await createTestUser();
    const response = await callRoute(listingAction, "/shop/listing", {
      form: { intent: "review", productId: product.id, reviewValue: "5", reviewMessage: "x" },
      cookie: await sessionCookieFor(ann.id),
    });
    expect(response.status).toBe(403);
    const body = await response.json();
    expect(body.toast.message).toBe("You need to purchase product to review it.");
    expect(body.result.error).toEqual({ "": ["You need to purchase product to review it."] });
  });

  it("sends an anonymous visitor to sign in and back", async () => {
    const product = await createProduct();
    const response = await callRoute(listingAction, `/shop/listing?product=${product.id}`, {
      form: { intent: "review", productId: product.id, reviewValue: "5", reviewMessage: "x" },
    });
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get("Location")!, "http://x");
    expect(location.pathname).toBe("/auth/login");
    expect(location.searchParams.get("redirectTo")).toBe(`/shop/listing?product=${product.id}`);
  });
});
