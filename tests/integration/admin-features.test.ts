import { existsSync } from "node:fs";
import path from "node:path";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { getConfig } from "../../app/lib/server/config.server";
import { getDb } from "../../app/models/db.server";
import { action as dashboardAction, loader as dashboardLoader } from "../../app/routes/admin.dashboard";
import { action as addApi } from "../../app/routes/api.common.feature.add";
import { action as deleteApi } from "../../app/routes/api.common.feature.delete.$id";
import { loader as getApi } from "../../app/routes/api.common.feature.get";
import { loader as featuresPageLoader } from "../../app/routes/admin.features";
import { addFeature, deleteFeature, listFeatures } from "../../app/services/features.server";
import { storeImage } from "../../app/services/uploads.server";
import { resetDatabase } from "../support/database";
import {
  createCallers,
  createOrderRow,
  file,
  formRequest,
  jsonRequest,
  multipartRequest,
  PNG_BYTES,
  readApi,
  run,
  type Callers,
  uploaded,
} from "./admin-support";

function storedFile(url: string) {
  return path.join(getConfig().uploadDir, url.replace(/^\/uploads\//, ""));
}

let callers: Callers;
beforeEach(async () => {
  await resetDatabase();
  callers = await createCallers();
});

describe("feature images (service)", () => {
  it("adds an uploaded image and lists them in the order they were added", async () => {
    const first = await storeImage(uploaded(PNG_BYTES, "a.png", "image/png"));
    const second = await storeImage(uploaded(PNG_BYTES, "b.png", "image/png"));
    await addFeature({ image: first.url });
    await addFeature({ image: second.url });
    await addFeature({ image: "/images/banners/banner-1.svg" });
    expect((await listFeatures()).map((feature) => feature.image)).toEqual([
      first.url,
      second.url,
      "/images/banners/banner-1.svg",
    ]);
  });

  it("keeps the order in which banners were added, even those added within one millisecond", async () => {
    // The app's clock stands still: whatever times the order, it is not a JavaScript Date.
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2026-11-24T05:00:00.000Z") });
    try {
      const added: string[] = [];
      for (let index = 0; index < 15; index++) {
        added.push((await addFeature({ image: `/images/banners/banner-${(index % 3) + 1}.svg` }))._id);
      }
      expect((await listFeatures()).map((feature) => feature._id)).toEqual(added);
    } finally {
      vi.useRealTimers();
    }
  });

  it("keeps an optional title, subtitle and link (a path on the shop); blank ones are null, the page's defaults", async () => {
    const stored = await storeImage(uploaded(PNG_BYTES, "a.png", "image/png"));
    const full = await addFeature({
      image: stored.url,
      title: "  Winter Sale ",
      subtitle: "Coats and boots",
      link: `${getConfig().appUrl}/shop/listing?category=footwear`,
    });
    expect(full).toMatchObject({
      title: "Winter Sale",
      subtitle: "Coats and boots",
      link: "/shop/listing?category=footwear",
    });
    const bare = await addFeature({ image: stored.url, title: "", subtitle: " ", link: "" });
    expect(bare).toMatchObject({ title: null, subtitle: null, link: null });
    expect((await listFeatures()).map(({ title, link }) => ({ title, link }))).toEqual([
      { title: "Winter Sale", link: "/shop/listing?category=footwear" },
      { title: null, link: null },
    ]);
  });

  it.each([
    ["another site", "https://evil.example/sale", "link"],
    ["a protocol-relative URL", "//evil.example/sale", "link"],
    ["a script URL", "javascript:alert(1)", "link"],
    ["another site through a dot segment", "/.//evil.example", "link"],
    ["another site through a dot segment and a backslash", "/./\\evil.example", "link"],
    ["a path with a backslash", "/shop\\..\\\\evil.example", "link"],
  ])("refuses a banner link to %s with 400 and adds nothing", async (_name, link, field) => {
    const stored = await storeImage(uploaded(PNG_BYTES, "a.png", "image/png"));
    await expect(addFeature({ image: stored.url, link })).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining("Link must be a path on this shop"),
      fieldErrors: { [field]: [expect.any(String)] },
    });
    await expect(addFeature({ image: stored.url, title: "x".repeat(81) })).rejects.toMatchObject({
      status: 400,
      fieldErrors: { title: ["Title must be at most 80 characters"] },
    });
    expect(await getDb().models.FeatureImage.count()).toBe(0);
  });

  it("refuses a NUL or another control character in a banner title or subtitle with 400", async () => {
    const stored = await storeImage(uploaded(PNG_BYTES, "a.png", "image/png"));
    await expect(
      addFeature({ image: stored.url, title: "Sale\u0000", subtitle: "Now\u0007" }),
    ).rejects.toMatchObject({
      status: 400,
      fieldErrors: {
        title: ["Title cannot contain control characters (such as NUL)"],
        subtitle: ["Subtitle cannot contain control characters (such as NUL)"],
      },
    });
    expect(await getDb().models.FeatureImage.count()).toBe(0);
  });

  it("takes an absolute URL of this shop as its path", async () => {
    const stored = await storeImage(uploaded(PNG_BYTES, "a.png", "image/png"));
    const feature = await addFeature({ image: `${getConfig().appUrl}${stored.url}` });
    expect(feature.image).toBe(stored.url);
  });

  it.each([
    ["no image", {}, "Please upload an image"],
    ["an empty image", { image: "" }, "Please upload an image"],
    ["another site's URL", { image: "https://evil.example/banner.png" }, "Upload the image first"],
    ["a number", { image: 42 }, "Image must be a URL"],
    ["a script URL", { image: "javascript:alert(1)" }, "Image must be an uploaded image or an http(s) URL"],
    [
      "an upload that does not exist",
      { image: "/uploads/00000000-0000-4000-8000-000000000000.png" },
      "upload it again",
    ],
  ])("refuses %s with 400", async (_name, input, message) => {
    await expect(addFeature(input)).rejects.toMatchObject({
      status: 400,
      fieldErrors: { image: [expect.stringContaining(message)] },
    });
    expect(await getDb().models.FeatureImage.count()).toBe(0);
  });

  it("deletes a feature image and its upload, unless something else still shows it", async () => {
    const lonely = await storeImage(uploaded(PNG_BYTES, "a.png", "image/png"));
    const shared = await storeImage(uploaded(PNG_BYTES, "b.png", "image/png"));
    const one = await addFeature({ image: lonely.url });
    const two = await addFeature({ image: shared.url });
    await createOrderRow({
      userId: callers.shopperId,
      items: [{ productId: null, title: "Poster", image: shared.url, price: "5.00", quantity: 1 }],
    });
    await deleteFeature(one._id);
    await deleteFeature(two._id);
    expect(await listFeatures()).toEqual([]);
    expect(existsSync(storedFile(lonely.url))).toBe(false);
    expect(existsSync(storedFile(shared.url))).toBe(true);
    await expect(deleteFeature(one._id)).rejects.toMatchObject({ status: 404 });
    await expect(deleteFeature("nope")).rejects.toMatchObject({ status: 404 });
  });
});

describe("the feature API", () => {
  it("lists feature images for anybody, signed in or not", async () => {
    await addFeature({ image: "/images/banners/banner-2.svg" });
    const response = await run(getApi, jsonRequest("/api/common/feature/get"));
    expect(response.status).toBe(200);
    expect(await readApi(response)).toEqual({
      success: true,
      data: [
        {
          _id: expect.any(String),
          image: `${getConfig().appUrl}/images/banners/banner-2.svg`,
          title: null,
          subtitle: null,
          link: null,
        },
      ],
    });
  });

  it("lets only admins add (401/403) and delete (401/403)", async () => {
    const feature = await addFeature({ image: "/images/banners/banner-3.svg" });
    for (const [cookie, status] of [
      [null, 401],
      [callers.shopper, 403],
    ] as const) {
      const add = await run(
        addApi,
        jsonRequest("/api/common/feature/add", { json: { image: "/images/banners/banner-1.svg" }, cookie }),
      );
      expect(add.status).toBe(status);
      const del = await run(
        deleteApi,
        jsonRequest(`/api/common/feature/delete/${feature._id}`, { method: "DELETE", cookie }),
        { id: feature._id },
      );
      expect(del.status).toBe(status);
      expect((await readApi(del)).success).toBe(false);
    }
    expect(await getDb().models.FeatureImage.count()).toBe(1);
  });

  it("adds (201) and deletes for an admin; 400, 404 and 415 for bad calls", async () => {
    const stored = await storeImage(uploaded(PNG_BYTES, "a.png", "image/png"));
    const add = await run(
      addApi,
      jsonRequest("/api/common/feature/add", { json: { image: stored.url }, cookie: callers.admin }),
    );
    expect(add.status).toBe(201);
    const added = await readApi(add);
    expect(added).toMatchObject({
      success: true,
      data: { image: `${getConfig().appUrl}${stored.url}`, title: null, link: null },
    });
    const id = (added.data as { _id: string })._id;

    const bad = await run(
      addApi,
      jsonRequest("/api/common/feature/add", { json: { image: ["x"] }, cookie: callers.admin }),
    );
    expect(bad.status).toBe(400);
    expect((await readApi(bad)).errors).toHaveProperty("image");
    const wrongType = await run(
      addApi,
      jsonRequest("/api/common/feature/add", {
        body: "image=x",
        contentType: "text/plain",
        cookie: callers.admin,
      }),
    );
    expect(wrongType.status).toBe(415);

    const del = await run(
      deleteApi,
      jsonRequest(`/api/common/feature/delete/${id}`, { method: "DELETE", cookie: callers.admin }),
      { id },
    );
    expect(del.status).toBe(200);
    expect(await readApi(del)).toEqual({ success: true, message: "Feature image deleted successfully" });
    const again = await run(
      deleteApi,
      jsonRequest(`/api/common/feature/delete/${id}`, { method: "DELETE", cookie: callers.admin }),
      { id },
    );
    expect(again.status).toBe(404);
  });
});

describe("the dashboard page (works without JavaScript)", () => {
  it("keeps shoppers out of the dashboard and the features page", async () => {
    for (const loader of [dashboardLoader, featuresPageLoader]) {
      const response = await run(loader, jsonRequest("/admin/dashboard", { cookie: callers.shopper }));
      expect(response.headers.get("Location")).toBe("/unauth-page");
    }
    const post = await run(
      dashboardAction,
      multipartRequest(
        "/admin/dashboard",
        { intent: "add", my_file: file(PNG_BYTES, "a.png", "image/png") },
        callers.shopper,
      ),
    );
    expect(post.headers.get("Location")).toBe("/unauth-page");
    expect(await getDb().models.FeatureImage.count()).toBe(0);
  });

  it("adds a feature image from a file in the form (no JavaScript)", async () => {
    const response = await run(
      dashboardAction,
      multipartRequest(
        "/admin/dashboard",
        { intent: "add", image: "", my_file: file(PNG_BYTES, "a.png", "image/png") },
        callers.admin,
      ),
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/admin/dashboard");
    const [feature] = await listFeatures();
    expect(feature?.image).toMatch(/^\/uploads\/.+\.png$/);
  });

  it("adds a feature image with its banner title, subtitle and link from the form", async () => {
    const stored = await storeImage(uploaded(PNG_BYTES, "a.png", "image/png"));
    const response = await run(
      dashboardAction,
      multipartRequest(
        "/admin/dashboard",
        {
          intent: "add",
          image: stored.url,
          title: "Kids' corner",
          subtitle: "Play-proof clothes",
          link: "/shop/listing?category=kids",
        },
        callers.admin,
      ),
    );
    expect(response.status).toBe(302);
    expect(await listFeatures()).toMatchObject([
      { title: "Kids' corner", subtitle: "Play-proof clothes", link: "/shop/listing?category=kids" },
    ]);
  });

  it("adds a feature image uploaded beforehand (with JavaScript: only its URL travels)", async () => {
    const stored = await storeImage(uploaded(PNG_BYTES, "a.png", "image/png"));
    const response = await run(
      dashboardAction,
      multipartRequest("/admin/dashboard", { intent: "add", image: stored.url }, callers.admin),
    );
    expect(response.status).toBe(302);
    expect((await listFeatures()).map((f) => f.image)).toEqual([stored.url]);
  });

  it("explains a refused file and an empty form", async () => {
    const notImage = await run(
      dashboardAction,
      multipartRequest(
        "/admin/dashboard",
        { intent: "add", my_file: file("text", "a.png", "image/png") },
        callers.admin,
      ),
    );
    expect(notImage.status).toBe(400);
    expect(await notImage.json()).toEqual({ error: expect.stringMatching(/^Please upload an image file/) });
    const empty = await run(
      dashboardAction,
      multipartRequest("/admin/dashboard", { intent: "add", image: "" }, callers.admin),
    );
    expect(empty.status).toBe(400);
    expect(await empty.json()).toEqual({ error: "Please upload an image" });
  });

  it("deletes a feature image with a POST", async () => {
    const feature = await addFeature({ image: "/images/banners/banner-1.svg" });
    const response = await run(
      dashboardAction,
      formRequest("/admin/dashboard", { intent: "delete", id: feature._id }, callers.admin),
    );
    expect(response.status).toBe(302);
    expect(await listFeatures()).toEqual([]);
    const unknown = await run(
      dashboardAction,
      formRequest("/admin/dashboard", { intent: "rename", id: feature._id }, callers.admin),
    );
    expect(unknown.status).toBe(400);
  });
});
