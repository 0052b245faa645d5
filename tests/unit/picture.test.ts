import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { JSDOM } from "jsdom";
import { describe, expect, it } from "vitest";
import { Picture, type PictureData } from "../../app/components/Picture";
import { CARD_SIZES } from "../../app/components/ProductCard";
import { SLIDE_SIZES } from "../../app/components/ProductGallery";
import { imageSrcSet, imageWidthUrl, pictureSizes, widthsFor } from "../../app/lib/shared/images";

const KEY = "0b9a3c1e-7a51-4d41-9d39-7c5f0e3a2b10";
const UPLOAD = `/uploads/${KEY}.jpg`;

function render(picture: PictureData, priority?: "lazy" | "eager" | "high") {
  const html = renderToStaticMarkup(createElement(Picture, { picture, sizes: "72px", priority }));
  return new JSDOM(`<body>${html}</body>`).window.document.body;
}

describe("the URL of a stored width", () => {
  it("is the width's own key beside the original's, in the format asked", () => {
    expect(imageWidthUrl(UPLOAD, 320, "avif")).toBe(`/uploads/${KEY}-w320.avif`);
    expect(imageWidthUrl(UPLOAD, 320, "webp")).toBe(`/uploads/${KEY}-w320.webp`);
  });

  it("keeps an S3 public URL's base, since the widths sit next to the original", () => {
    expect(imageWidthUrl(`https://cdn.example/shop/${KEY}.png`, 640, "avif")).toBe(
      `https://cdn.example/shop/${KEY}-w640.avif`,
    );
  });

  it("is null for what has no stored widths: a drawing, another site's picture, an SVG or BMP upload", () => {
    expect(imageWidthUrl("/images/products/tee.svg", 320, "webp")).toBeNull();
    expect(imageWidthUrl("https://example.com/photo.jpg", 320, "webp")).toBeNull();
    expect(imageWidthUrl(`/uploads/${KEY}.svg`, 320, "webp")).toBeNull();
    expect(imageWidthUrl(`/uploads/${KEY}.bmp`, 320, "webp")).toBeNull();
  });
});

describe("a srcset", () => {
  it("lists every stored width up to the original's own, never wider", () => {
    expect(imageSrcSet(UPLOAD, 500, "webp")).toBe(
      [160, 320, 400, 500].map((width) => `/uploads/${KEY}-w${width}.webp ${width}w`).join(", "),
    );
  });

  it("stops at the widest stored width for a camera-sized photo", () => {
    const widths = imageSrcSet(UPLOAD, 4000, "avif")
      .split(", ")
      .map((entry) => Number(entry.split(" ")[1]!.slice(0, -1)));
    expect(widths).toEqual([160, 320, 400, 640, 800, 1280, 1920, 2560]);
  });

  it("is empty without a known width or for a URL that is not an upload", () => {
    expect(imageSrcSet(UPLOAD, null, "webp")).toBe("");
    expect(imageSrcSet("/images/products/tee.svg", 600, "webp")).toBe("");
  });
});

describe("<Picture>", () => {
  it("renders an AVIF and a WebP source and an img with its size, sizes, alt, async decoding and lazy loading", () => {
    const body = render({ url: UPLOAD, width: 2400, height: 3200, alt: "Blue tee" });
    const sources = [...body.querySelectorAll("picture > source")];
    expect(sources.map((source) => source.getAttribute("type"))).toEqual(["image/avif", "image/webp"]);
    expect(sources[0]!.getAttribute("srcset")).toBe(imageSrcSet(UPLOAD, 2400, "avif"));
    expect(sources[1]!.getAttribute("srcset")).toBe(imageSrcSet(UPLOAD, 2400, "webp"));
    expect(sources.every((source) => source.getAttribute("sizes") === pictureSizes("72px"))).toBe(true);
    const img = body.querySelector("picture > img")!;
    expect(img.getAttribute("width")).toBe("2400");
    expect(img.getAttribute("height")).toBe("3200");
    expect(img.getAttribute("alt")).toBe("Blue tee");
    expect(img.getAttribute("decoding")).toBe("async");
    expect(img.getAttribute("loading")).toBe("lazy");
    expect(img.hasAttribute("fetchpriority")).toBe(false);
    // Never the original: a stored WebP width.
    expect(img.getAttribute("src")).toBe(`/uploads/${KEY}-w640.webp`);
  });

  it("loads a first-screen picture at once, and the largest one before the others", () => {
    const eager = render({ url: UPLOAD, width: 800, height: 800, alt: "" }, "eager").querySelector("img")!;
    expect(eager.getAttribute("loading")).toBe("eager");
    expect(eager.getAttribute("fetchpriority")).toBe("low");
    const high = render({ url: UPLOAD, width: 800, height: 800, alt: "" }, "high").querySelector("img")!;
    expect(high.getAttribute("loading")).toBe("eager");
    expect(high.getAttribute("fetchpriority")).toBe("high");
  });

  it("renders a drawing as a plain img with its size", () => {
    const body = render({ url: "/images/products/tee.svg", width: 600, height: 600, alt: "Tee" });
    expect(body.querySelector("picture")).toBeNull();
    const img = body.querySelector("img")!;
    expect(img.getAttribute("src")).toBe("/images/products/tee.svg");
    expect(img.getAttribute("width")).toBe("600");
    expect(img.hasAttribute("srcset")).toBe(false);
    expect(img.hasAttribute("sizes")).toBe(false);
  });

  it("renders an upload whose size is not known yet as its original, without srcset", () => {
    const body = render({ url: UPLOAD, width: null, height: null, alt: "" });
    expect(body.querySelector("picture")).toBeNull();
    const img = body.querySelector("img")!;
    expect(img.getAttribute("src")).toBe(UPLOAD);
    expect(img.hasAttribute("width")).toBe(false);
  });
});

/**
 * The width a browser fetches for `sizes` and the stored widths of a camera photo, as Chromium chooses: the
 * first `sizes` entry whose media condition matches the screen gives the CSS width; times the density, the
 * smallest candidate at or above it, else the largest. Understands what the shop's `sizes` use: max-width,
 * min-width and min-resolution conditions, px, rem and vw lengths, calc() and min().
 */
function widthFetched(sizes: string, screen: { width: number; density: number }): number {
  const entries = sizes.split(/,\s*(?![^()]*\))(?=\(|\d|calc|min)/);
  for (const entry of entries) {
    const conditions = [...entry.matchAll(/\((max-width|min-width|min-resolution): ([\d.]+)(px|dppx)\)/g)];
    const matches = conditions.every(([, feature, value]) =>
      feature === "max-width"
        ? screen.width <= Number(value)
        : feature === "min-width"
          ? screen.width >= Number(value)
          : screen.density >= Number(value),
    );
    if (!matches) continue;
    const length = entry.replace(/^(\s*(and\s+)?\((max-width|min-width|min-resolution): [^)]*\))+\s*/, "");
    const expression = length
      .replace(/calc\(/g, "(")
      .replace(/min\(/g, "Math.min(")
      .replace(/([\d.]+)vw/g, (_, value: string) => String((Number(value) * screen.width) / 100))
      .replace(/([\d.]+)rem/g, (_, value: string) => String(Number(value) * 16))
      .replace(/([\d.]+)px/g, "$1");
    expect(expression, `a length this helper understands: ${length}`).toMatch(/^[\d\s.+\-*/(),Mathmin]+$/);
    const cssWidth = Number(new Function(`return ${expression};`)());
    const needed = cssWidth * screen.density;
    const candidates = widthsFor(2400);
    return candidates.find((candidate) => candidate >= needed) ?? candidates.at(-1)!;
  }
  throw new Error(`no sizes entry matches ${JSON.stringify(screen)}: ${sizes}`);
}

describe("the density cap of a picture's sizes", () => {
  it("fetches for a 3× phone the width a 2× phone needs: a card on a 375-px phone takes 400 pixels, not 640", () => {
    expect(widthFetched(CARD_SIZES.fullWidth, { width: 375, density: 3 })).toBe(640);
    expect(widthFetched(pictureSizes(CARD_SIZES.fullWidth), { width: 375, density: 3 })).toBe(400);
    expect(widthFetched(pictureSizes(CARD_SIZES.listing), { width: 375, density: 3 })).toBe(400);
    expect(widthFetched(pictureSizes(CARD_SIZES.fullWidth), { width: 375, density: 2 })).toBe(400);
  });

  it("brings the screens between 2.5× and 3× (many Android phones) to about 2× too", () => {
    // 412 px at 2.625: a card of 184 px needs 483 pixels (640); capped, 386 (400).
    expect(widthFetched(CARD_SIZES.fullWidth, { width: 412, density: 2.625 })).toBe(640);
    expect(widthFetched(pictureSizes(CARD_SIZES.fullWidth), { width: 412, density: 2.625 })).toBe(400);
  });

  it("gives the product picture of a 3× phone 800 pixels (343 px at 2×) instead of 1280", () => {
    expect(widthFetched(SLIDE_SIZES, { width: 375, density: 3 })).toBe(1280);
    expect(widthFetched(pictureSizes(SLIDE_SIZES), { width: 375, density: 3 })).toBe(800);
  });

  it("leaves screens of 2× or less as the layout says: the same width with and without the cap", () => {
    for (const screen of [
      { width: 1280, density: 1 },
      { width: 1440, density: 2 },
      { width: 412, density: 1.75 },
      { width: 800, density: 1.5 },
    ]) {
      for (const sizes of [CARD_SIZES.listing, CARD_SIZES.fullWidth, SLIDE_SIZES, "72px", "100vw"]) {
        expect(widthFetched(pictureSizes(sizes), screen), `${sizes} at ${JSON.stringify(screen)}`).toBe(
          widthFetched(sizes, screen),
        );
      }
    }
  });

  it("keeps every entry of the layout's sizes, each after its capped forms, and the commas inside min()", () => {
    expect(pictureSizes("(min-width: 768px) min(50vw, 600px), calc(100vw - 2rem)")).toBe(
      [
        "(min-width: 768px) and (min-resolution: 3dppx) calc(min(50vw, 600px) * 2 / 3)",
        "(min-width: 768px) and (min-resolution: 2.5dppx) calc(min(50vw, 600px) * 0.8)",
        "(min-width: 768px) min(50vw, 600px)",
        "(min-resolution: 3dppx) calc((100vw - 2rem) * 2 / 3)",
        "(min-resolution: 2.5dppx) calc((100vw - 2rem) * 0.8)",
        "calc(100vw - 2rem)",
      ].join(", "),
    );
    expect(pictureSizes("72px")).toBe(
      "(min-resolution: 3dppx) calc(72px * 2 / 3), (min-resolution: 2.5dppx) calc(72px * 0.8), 72px",
    );
  });
});
