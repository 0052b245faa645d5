import { describe, expect, it } from "vitest";
import {
  CACHED_STYLES_COOKIE,
  cachedStylesheetsOf,
  rememberedStylesheetsCookie,
} from "~/web/cached-styles.server";
import { stylesheetFingerprint } from "~/lib/server/inline-styles.server";

const SESSION = "__session=abc";
const request = (cookie: string) =>
  new Request("http://shop.test/shop/listing", { headers: cookie ? { Cookie: cookie } : {} });
const valueOf = (setCookie: string | null) => /^cached_styles=([^;]*)/.exec(setCookie ?? "")?.[1];
const print = (n: number) => String(n).padStart(8, "x");

describe("a stylesheet's fingerprint", () => {
  it("is the hash Vite writes into the file's name, dashes and all", () => {
    expect(stylesheetFingerprint("/build/assets/storefront-Yn6-X3jt.css")).toBe("Yn6-X3jt");
    expect(stylesheetFingerprint("/build/assets/mantine-overlays-BU8xhFbb.css")).toBe("BU8xhFbb");
  });

  it("is none for a script or a file without a hash", () => {
    expect(stylesheetFingerprint("/build/assets/root-B2ydNYDY.js")).toBeNull();
    expect(stylesheetFingerprint("/favicon.css")).toBeNull();
  });
});

describe("the cookie a document that carried stylesheets' text sets", () => {
  it("names the sheets it carried, newest first, after those the browser held already", () => {
    const first = rememberedStylesheetsCookie(["AAAAAAAA", "Yn6-X3jt"], request(SESSION), false);
    expect(valueOf(first)).toBe("AAAAAAAA.Yn6-X3jt");
    expect(first).toContain("Path=/");
    expect(first).toContain("SameSite=Lax");
    expect(first).not.toContain("Secure");
    const next = rememberedStylesheetsCookie(
      ["9GUVMEey"],
      request(`${SESSION}; ${CACHED_STYLES_COOKIE}=AAAAAAAA.Yn6-X3jt`),
      true,
    );
    expect(valueOf(next)).toBe("9GUVMEey.AAAAAAAA.Yn6-X3jt");
    expect(next).toContain("; Secure");
  });

  it("is earned by a visitor's cart too, and by nobody without a session or a cart", () => {
    expect(rememberedStylesheetsCookie([print(1)], request("guest_cart=xyz"), false)).not.toBeNull();
    expect(rememberedStylesheetsCookie([print(1)], request(""), false)).toBeNull();
    expect(
      rememberedStylesheetsCookie([print(1)], request(`${CACHED_STYLES_COOKIE}=AAAAAAAA`), false),
    ).toBeNull();
  });

  it("is not set again when it names every sheet already, nor for a page that carried none", () => {
    expect(
      rememberedStylesheetsCookie(
        [print(1)],
        request(`${SESSION}; ${CACHED_STYLES_COOKIE}=${print(1)}`),
        false,
      ),
    ).toBeNull();
    expect(rememberedStylesheetsCookie([], request(SESSION), false)).toBeNull();
  });

  it("keeps the sixteen newest sheets and drops what is not a fingerprint", () => {
    let value = "<script>.AAAAAAAA";
    for (let n = 1; n <= 20; n++) {
      value = valueOf(
        rememberedStylesheetsCookie(
          [print(n)],
          request(`${SESSION}; ${CACHED_STYLES_COOKIE}=${value}`),
          false,
        ),
      )!;
    }
    const kept = value.split(".");
    expect(kept).toHaveLength(16);
    expect(kept[0]).toBe(print(20));
    expect(kept).not.toContain("<script>");
    expect(kept).not.toContain(print(1));
  });
});

describe("the sheets a page may import from the browser's cache", () => {
  it("are the cookie's, for someone's own page", () => {
    expect([
      ...cachedStylesheetsOf(request(`${SESSION}; ${CACHED_STYLES_COOKIE}=AAAAAAAA.Yn6-X3jt`)),
    ]).toEqual(["AAAAAAAA", "Yn6-X3jt"]);
  });

  it("are none for a visitor without a session or a cart: a page a shared cache keeps is everyone's", () => {
    expect(cachedStylesheetsOf(request(`${CACHED_STYLES_COOKIE}=AAAAAAAA`)).size).toBe(0);
  });
});
