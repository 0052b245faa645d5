import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { JSDOM } from "jsdom";
import { describe, expect, it } from "vitest";
import { Picture, type PictureData } from "../../app/components/Picture";
import { imageSrcSet, imageWidthUrl } from "../../app/lib/shared/images";

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
      [160, 320, 480, 500].map((width) => `/uploads/${KEY}-w${width}.webp ${width}w`).join(", "),
    );
  });

  it("stops at the widest stored width for a camera-sized photo", () => {
    const widths = imageSrcSet(UPLOAD, 4000, "avif")
      .split(", ")
      .map((entry) => Number(entry.split(" ")[1]!.slice(0, -1)));
    expect(widths).toEqual([160, 320, 480, 640, 960, 1280, 1920, 2560]);
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
    expect(sources.every((source) => source.getAttribute("sizes") === "72px")).toBe(true);
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

  it("loads a first-screen picture at once, and the largest one first", () => {
    const eager = render({ url: UPLOAD, width: 800, height: 800, alt: "" }, "eager").querySelector("img")!;
    expect(eager.getAttribute("loading")).toBe("eager");
    expect(eager.hasAttribute("fetchpriority")).toBe(false);
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
