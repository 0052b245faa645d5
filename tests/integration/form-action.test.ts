import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { parse } from "@conform-to/react";
import { describe, expect, it } from "vitest";
import {
  AppError,
  badRequest,
  conflict,
  notFound,
  tooManyRequests,
} from "../../app/lib/server/errors.server";
import {
  redirectWithRefusal,
  replyToRefusal,
  runOrRefuse,
  submitOrRedirect,
  submitOrReply,
} from "../../app/web/form-action.server";
import { buildRequest } from "../support/requests";
import { flashOf } from "./cart-support";

/**
 * app/web/form-action.server.ts: the one way an HTML action answers a
 * service's refusal (an AppError), as conform's reply or as a flash redirect;
 * anything else is not its business and goes on.
 */

function sentForm(values: Record<string, string>) {
  const formData = new FormData();
  for (const [name, value] of Object.entries(values)) formData.set(name, value);
  return parse<undefined, string[]>(formData, { resolve: () => ({ value: undefined }) });
}

const refusedBy = (error: unknown) => () => Promise.reject(error);

describe("submitOrReply", () => {
  it("hands back the service call's value when nothing is refused", async () => {
    const outcome = await submitOrReply(sentForm({ title: "Tee" }), () => Promise.resolve(42));
    expect(outcome).toEqual({ ok: true, value: 42 });
  });

  it("puts a refusal's field errors onto their fields, with the refusal's status and no form error", async () => {
    const error = badRequest("Please check the highlighted fields", { title: ["Title is required"] });
    const outcome = await submitOrReply(sentForm({ title: "T", price: "3" }), refusedBy(error));
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.error).toBe(error);
    expect(outcome.init).toEqual({ status: 400 });
    expect(outcome.result.status).toBe("error");
    expect(outcome.result.error).toEqual({ title: ["Title is required"] });
    expect(outcome.result.initialValue).toEqual({ title: "T", price: "3" });
  });

  it("shows a refusal without field errors as the form's error, with its status and headers", async () => {
    const outcome = await submitOrReply(
      sentForm({ email: "a@example.com", password: "secret" }),
      refusedBy(tooManyRequests("Too many attempts", 30)),
      { hideFields: ["password"] },
    );
    if (outcome.ok) throw new Error("expected a refusal");
    expect(outcome.result.error).toEqual({ "": ["Too many attempts"] });
    expect(outcome.init).toEqual({ status: 429, headers: { "Retry-After": "30" } });
    // A hidden field's value does not come back to the page.
    expect(outcome.result.initialValue).toEqual({ email: "a@example.com" });
  });

  it("lets a form choose which field errors it shows; the message stands in when none is left", async () => {
    const error = badRequest("Invalid review", { rating: ["Pick a rating"] });
    const outcome = await submitOrReply(sentForm({}), refusedBy(error), { fieldErrors: () => undefined });
    if (outcome.ok) throw new Error("expected a refusal");
    expect(outcome.result.error).toEqual({ "": ["Invalid review"] });

    const taken = await submitOrReply(sentForm({ email: "a@example.com" }), refusedBy(conflict("Taken")), {
      fieldErrors: (refusal) => (refusal.status === 409 ? { email: [refusal.message] } : undefined),
    });
    if (taken.ok) throw new Error("expected a refusal");
    expect(taken.result.error).toEqual({ email: ["Taken"] });
    expect(taken.init.status).toBe(409);
  });

  it("rethrows what is not a refusal", async () => {
    const bug = new TypeError("undefined is not a function");
    await expect(submitOrReply(sentForm({}), refusedBy(bug))).rejects.toBe(bug);
  });
});

describe("replyToRefusal", () => {
  it("treats an empty set of field errors as none: the message is the form's error", () => {
    const { result, init } = replyToRefusal(sentForm({}), new AppError(400, "Nothing fits", {}));
    expect(result.error).toEqual({ "": ["Nothing fits"] });
    expect(init).toEqual({ status: 400 });
  });
});

describe("submitOrRedirect", () => {
  const request = () => buildRequest("/admin/products?page=2", { method: "POST" });

  it("answers with the service call's own response when nothing is refused", async () => {
    const done = new Response(null, { status: 204 });
    expect(await submitOrRedirect(request(), "/elsewhere", () => Promise.resolve(done))).toBe(done);
  });

  it("redirects a refusal to the given URL with its message as an error flash", async () => {
    const response = await submitOrRedirect(
      request(),
      "/admin/products?page=2",
      refusedBy(conflict("Gone meanwhile")),
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/admin/products?page=2");
    expect(await flashOf(response)).toEqual({ type: "error", message: "Gone meanwhile" });
  });

  it("lets the refusal choose where to go", async () => {
    const to = (error: AppError) => (error.status === 404 ? "/shop/account" : "/shop/account/orders/1");
    const missing = await submitOrRedirect(request(), to, refusedBy(notFound("Order not found")));
    expect(missing.headers.get("Location")).toBe("/shop/account");
    const refused = await submitOrRedirect(request(), to, refusedBy(conflict("Already paid")));
    expect(refused.headers.get("Location")).toBe("/shop/account/orders/1");
    expect(await flashOf(refused)).toEqual({ type: "error", message: "Already paid" });
  });

  it("rethrows what is not a refusal, a thrown redirect included", async () => {
    const bug = new Error("connection lost");
    await expect(submitOrRedirect(request(), "/x", refusedBy(bug))).rejects.toBe(bug);
    const thrown = new Response(null, { status: 302, headers: { Location: "/auth/login" } });
    await expect(submitOrRedirect(request(), "/x", refusedBy(thrown))).rejects.toBe(thrown);
  });
});

describe("runOrRefuse and redirectWithRefusal", () => {
  it("hands a refusal to the caller's answer and nothing else", async () => {
    const answered = await runOrRefuse(
      refusedBy(notFound("Missing")),
      (error) => `refused: ${error.message}`,
    );
    expect(answered).toBe("refused: Missing");
    expect(
      await runOrRefuse(
        () => Promise.resolve("fine"),
        () => "refused",
      ),
    ).toBe("fine");
    await expect(runOrRefuse(refusedBy(new RangeError("bug")), () => "refused")).rejects.toThrow("bug");
  });

  it("builds the error flash redirect", async () => {
    const response = await redirectWithRefusal(
      buildRequest("/"),
      "/shop/checkout",
      conflict("Prices changed"),
    );
    expect(response.headers.get("Location")).toBe("/shop/checkout");
    expect(await flashOf(response)).toEqual({ type: "error", message: "Prices changed" });
  });
});

describe("the HTML side has one way to catch a refusal", () => {
  const root = path.resolve(__dirname, "../..");
  const helper = path.join("app", "web", "form-action.server.ts");

  function sourcesUnder(folder: string): string[] {
    return readdirSync(path.join(root, folder), { recursive: true, encoding: "utf8" })
      .filter((file) => /\.tsx?$/.test(file))
      .map((file) => path.join(folder, file));
  }

  it("leaves no hand-written `if (!isAppError(error)) throw error` in app/routes or app/web", () => {
    const sources = [...sourcesUnder(path.join("app", "routes")), ...sourcesUnder(path.join("app", "web"))];
    expect(sources).toContain(helper);
    const offenders = sources.filter(
      (file) =>
        file !== helper &&
        /isAppError\(\s*error\s*\)\s*\)\s*throw\s+error/.test(readFileSync(path.join(root, file), "utf8")),
    );
    expect(offenders).toEqual([]);
    // The pattern itself still matches the helper's one catch: the search cannot go blind.
    expect(readFileSync(path.join(root, helper), "utf8")).toMatch(
      /isAppError\(\s*error\s*\)\s*\)\s*throw\s+error/,
    );
  });
});
