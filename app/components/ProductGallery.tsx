import { useLocation } from "react-router";
import { useEffect, useRef, useState, type MouseEvent } from "react";
import type { ProductImageJson } from "~/lib/shared/product";
import { Picture } from "./Picture";

/**
 * A product's pictures: one large picture on a horizontal scroll-snap track
 * that holds them all (a phone swipes it natively, with or without
 * JavaScript), and a row of thumbnails that select one
 * (docs/decisions/0018-product-gallery.md).
 *
 * Without JavaScript a thumbnail is a link to `?picture=N#<slide>`: the server
 * marks that thumbnail current and the fragment scrolls the track to its
 * slide. `?colour=black` (a listing filtered by colour, a shared link) shows
 * that colour's first picture first. With JavaScript the thumbnails scroll the
 * track smoothly without a page load, the current thumbnail follows a swipe,
 * and a colour chosen in the variant picker shows its first picture.
 */

/**
 * The large picture's width as the layout gives it (storefront.css .product-details): the page's width
 * on a phone, half of the at most 1200px content (or of the dialog) from 768px on.
 */
export const SLIDE_SIZES = "(min-width: 768px) min(50vw, 600px), calc(100vw - 2rem)";
/** A thumbnail's box: 4rem (.gallery__thumb). */
const THUMB_SIZES = "64px";

/** The picture to show first: `?picture=N` (1-based), else the first of `?colour=`, else the first. */
function initialPictureIndex(images: readonly ProductImageJson[], params: URLSearchParams): number {
  const asked = Number(params.get("picture"));
  if (Number.isInteger(asked) && asked >= 1 && asked <= images.length) return asked - 1;
  const colour = params.get("colour")?.split(",")[0]?.trim().toLowerCase();
  const ofColour = colour ? images.findIndex((picture) => picture.colour === colour) : -1;
  return ofColour >= 0 ? ofColour : 0;
}

/** A picture's text alternative: its own, else the product's title (and its place among several). */
function pictureAlt(picture: ProductImageJson, index: number, count: number, title: string): string {
  if (picture.alt) return picture.alt;
  return count > 1 && index > 0 ? `${title}, picture ${index + 1} of ${count}` : title;
}

const prefersReducedMotion = () =>
  typeof window !== "undefined" && window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;

export function ProductGallery({
  images,
  title,
  idPrefix,
  colour = null,
}: {
  images: readonly ProductImageJson[];
  title: string;
  /** Makes the slides' ids unique on the page (the product page and a dialog may both show one). */
  idPrefix: string;
  /** The colour chosen in the variant picker: its first picture is shown. */
  colour?: string | null;
}) {
  const location = useLocation();
  const params = new URLSearchParams(location.search);
  const initial = initialPictureIndex(images, params);
  const [current, setCurrent] = useState(initial);
  const track = useRef<HTMLDivElement>(null);
  const slideId = (index: number) => `${idPrefix}-picture-${index + 1}`;
  const count = images.length;

  const show = (index: number) => {
    setCurrent(index);
    const slide = track.current?.querySelector<HTMLElement>(`[data-index="${index}"]`);
    if (!track.current || !slide) return;
    // The track alone scrolls (scrollIntoView would also move the page to the picture).
    track.current.scrollTo({
      left: slide.offsetLeft - track.current.offsetLeft,
      behavior: prefersReducedMotion() ? "auto" : "smooth",
    });
  };

  // The current thumbnail follows a swipe: the slide that fills most of the track is the shown one.
  useEffect(() => {
    const element = track.current;
    if (!element || count < 2 || typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries)
          if (entry.isIntersecting) setCurrent(Number((entry.target as HTMLElement).dataset.index));
      },
      { root: element, threshold: 0.6 },
    );
    element.querySelectorAll("[data-index]").forEach((slide) => observer.observe(slide));
    return () => observer.disconnect();
  }, [count]);

  // A colour chosen in the picker shows its first picture (none of its own: the gallery stays).
  useEffect(() => {
    if (!colour) return;
    const index = images.findIndex((picture) => picture.colour === colour);
    if (index >= 0) show(index);
    // Only when the colour changes, not on every render of the list.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [colour]);

  const hrefOf = (index: number) => {
    const next = new URLSearchParams(location.search);
    next.set("picture", String(index + 1));
    return `?${next.toString()}#${slideId(index)}`;
  };
  const onThumbnail = (index: number) => (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    show(index);
  };

  return (
    <section className="gallery" aria-label="Pictures" data-testid="product-gallery">
      <div
        className="gallery__track"
        ref={track}
        // A scrolling box is reachable by keyboard (arrow keys scroll it).
        tabIndex={count > 1 ? 0 : undefined}
        aria-label={count > 1 ? `${count} pictures of ${title}` : undefined}
        role={count > 1 ? "group" : undefined}
      >
        {images.map((picture, index) => (
          <div
            key={picture.url}
            id={slideId(index)}
            className="gallery__slide"
            data-index={index}
            // The picture the URL asked for comes first, so that it shows without any scrolling.
            style={index === initial && index !== 0 ? { order: -1 } : undefined}
          >
            <Picture
              picture={{ ...picture, alt: pictureAlt(picture, index, count, title) }}
              sizes={SLIDE_SIZES}
              // The shown picture is the largest paint of the page and the dialog: fetched first.
              priority={index === initial ? "high" : "lazy"}
            />
          </div>
        ))}
      </div>
      {count > 1 ? (
        <ul className="gallery__thumbs">
          {images.map((picture, index) => (
            <li key={picture.url}>
              <a
                href={hrefOf(index)}
                className="gallery__thumb"
                aria-current={index === current ? "true" : undefined}
                aria-label={`Show picture ${index + 1} of ${count}${picture.alt ? `: ${picture.alt}` : ""}`}
                onClick={onThumbnail(index)}
              >
                <Picture picture={{ ...picture, alt: "" }} sizes={THUMB_SIZES} />
              </a>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
