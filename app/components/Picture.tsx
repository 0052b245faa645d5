import type { ReactEventHandler, Ref } from "react";
import { imageSrcSet, imageWidthUrl, pictureSizes, widthsFor } from "~/lib/shared/images";

/** A picture as the pages know it: its URL, its own size when the shop knows it, and its text. */
export interface PictureData {
  url: string;
  width: number | null;
  height: number | null;
  alt: string;
}

/**
 * How soon the browser fetches a picture: `lazy` below the first screen; `high` for the first screen's largest
 * picture (the page's LCP), one per page, which the page's scripts also wait for (lib/shared/page-scripts);
 * `eager` for the first screen's others, requested at once at low priority so that they share what is left of
 * a slow line instead of taking half of it from the `high` one (docs/decisions/0024).
 */
export type PicturePriority = "lazy" | "eager" | "high";

/** The width the `<img>`'s own `src` falls back to: what a phone's card or cart line needs at 2×. */
const FALLBACK_WIDTH = 640;

/**
 * Every picture of the shop's pages (docs/architecture.md, rule 14). A processed upload is a `<picture>` whose AVIF and
 * WebP `<source>`s list every stored width, so the browser fetches the one `sizes` needs at its density
 * (capped at 2×: `pictureSizes`); `width`/`height` reserve its box before it loads. Anything else (a drawing under /images, another
 * site's URL, an upload whose size is not known yet) is a plain `<img>`. Markup only: no state, no
 * effect, nothing for the browser's bundle beyond these lines.
 */
export function Picture({
  picture,
  sizes,
  priority = "lazy",
  className,
  imgRef,
  onError,
}: {
  picture: PictureData;
  /** The width the picture is shown at, per breakpoint, as the layout's CSS gives it (the density cap is added here). */
  sizes: string;
  priority?: PicturePriority;
  className?: string;
  imgRef?: Ref<HTMLImageElement>;
  onError?: ReactEventHandler<HTMLImageElement>;
}) {
  const { url, width, height, alt } = picture;
  const avif = imageSrcSet(url, width, "avif");
  const webp = imageSrcSet(url, width, "webp");
  const attributeSizes = webp ? pictureSizes(sizes) : undefined;
  const img = (
    <img
      ref={imgRef}
      className={className}
      src={(width && fallbackUrl(url, width)) || url}
      alt={alt}
      width={width ?? undefined}
      height={height ?? undefined}
      sizes={attributeSizes}
      loading={priority === "lazy" ? "lazy" : "eager"}
      // React 18 passes the attribute through only in lower case.
      {...(priority === "lazy" ? {} : { fetchpriority: priority === "high" ? "high" : "low" })}
      decoding="async"
      onError={onError}
    />
  );
  if (!avif || !webp) return img;
  return (
    <picture>
      <source type="image/avif" srcSet={avif} sizes={attributeSizes} />
      <source type="image/webp" srcSet={webp} sizes={attributeSizes} />
      {img}
    </picture>
  );
}

/** The `<img>`'s own `src` (for a browser without `<picture>`): a stored WebP width, never the original. */
function fallbackUrl(url: string, width: number): string | null {
  const widths = widthsFor(width);
  const chosen = widths.find((candidate) => candidate >= FALLBACK_WIDTH) ?? widths.at(-1)!;
  return imageWidthUrl(url, chosen, "webp");
}
