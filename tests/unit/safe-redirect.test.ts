import { describe, expect, it } from "vitest";
import { safeRedirect } from "../../app/web/request.server";

describe("safeRedirect", () => {
  it.each([
    ["/shop/home", "/shop/home"],
    [
      "/shop/listing?category=men,women&sortBy=title-atoz",
      "/shop/listing?category=men,women&sortBy=title-atoz",
    ],
    ["/shop/account?tab=orders#latest", "/shop/account?tab=orders#latest"],
    ["/admin/../shop/home", "/shop/home"],
  ])("keeps the same-site path %s (with its query)", (input, expected) => {
    expect(safeRedirect(input, "/fallback")).toBe(expected);
  });

  it.each([
    "//evil.com",
    "//evil.com/shop/home",
    "https://evil.com",
    "http://localhost:3000/shop/home",
    "javascript:alert(1)",
    "/\\evil.com",
    "/\\/evil.com",
    "\\\\evil.com",
    "/\t/evil.com",
    "/\n/evil.com",
    "/.//evil.com",
    "/a/..//evil.com",
    "shop/home",
    "",
  ])("falls back for the off-site or odd target %j", (input) => {
    expect(safeRedirect(input, "/fallback")).toBe("/fallback");
  });

  it("falls back for values that are not strings", () => {
    expect(safeRedirect(null, "/fallback")).toBe("/fallback");
    expect(safeRedirect(undefined, "/fallback")).toBe("/fallback");
    expect(safeRedirect(new File(["x"], "x.txt"), "/fallback")).toBe("/fallback");
    expect(safeRedirect(42 as unknown as string, "/fallback")).toBe("/fallback");
    expect(safeRedirect(["/shop/home"] as unknown as string, "/fallback")).toBe("/fallback");
  });

  it("falls back to / when no fallback is given", () => {
    expect(safeRedirect("//evil.com")).toBe("/");
  });
});
