import { useEffect, useRef, useState, type TouchEvent } from "react";
import { useHydrated } from "~/lib/shared/use-hydrated";
import { Picture } from "./Picture";

/** The size of the demo banners' drawings (public/images), the box any banner without a known size gets. */
const BANNER_DRAWING_SIZE = { width: 1600, height: 600 };

/** SPEC §9: the banner moves on every 15000 ms; a swipe needs 50 pixels. */
const BANNER_INTERVAL_MS = 15_000;
const SWIPE_THRESHOLD_PX = 50;

interface BannerImage {
  _id: string;
  image: string;
  /** The image's own size when it is a processed upload (its srcset and box), else null. */
  imageWidth?: number | null;
  imageHeight?: number | null;
  title?: string | null;
  subtitle?: string | null;
  link?: string | null;
}

/** What a banner says when the admin left its text empty. */
export const BANNER_DEFAULTS = {
  title: "Shop the collection",
  subtitle: "Clothing, footwear and accessories from the brands you love",
  link: "/shop/listing",
} as const;

/**
 * The home page's feature images. Without JavaScript it is a scroll-snap
 * strip (swipe or scroll it) whose dots are links to the slides; with
 * JavaScript it rotates on its own, answers swipes and has arrows on wide
 * screens. Rotation pauses while the pointer or the focus is on it. Each
 * slide's title, subtitle and "Shop now" link are HTML over the artwork, so
 * they stay readable on a phone and reach screen readers and search engines.
 */
export function Banner({ images }: { images: BannerImage[] }) {
  const hydrated = useHydrated();
  const [index, setIndex] = useState(0);
  const [paused, setPaused] = useState(false);
  const touchStartX = useRef<number | null>(null);
  const count = images.length;

  useEffect(() => {
    if (!hydrated || count < 2 || paused) return;
    // Restarts whenever the slide changes, so a manual move gets a full interval too.
    const timer = window.setTimeout(() => setIndex((current) => (current + 1) % count), BANNER_INTERVAL_MS);
    return () => window.clearTimeout(timer);
  }, [hydrated, count, paused, index]);

  if (!count) return null;
  const show = (next: number) => setIndex((next + count) % count);

  const onTouchStart = (event: TouchEvent) => {
    touchStartX.current = event.touches[0]?.clientX ?? null;
  };
  const onTouchEnd = (event: TouchEvent) => {
    const start = touchStartX.current;
    const end = event.changedTouches[0]?.clientX;
    touchStartX.current = null;
    if (start === null || end === undefined) return;
    const distance = end - start;
    if (distance <= -SWIPE_THRESHOLD_PX) show(index + 1);
    else if (distance >= SWIPE_THRESHOLD_PX) show(index - 1);
  };

  return (
    <section
      className={`banner${hydrated ? " banner--enhanced" : ""}`}
      aria-roledescription="carousel"
      aria-label="Featured"
      data-testid="banner"
      data-active-slide={index + 1}
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
    >
      <div
        className="banner__viewport"
        onTouchStart={onTouchStart}
        onTouchEnd={onTouchEnd}
        // Without JavaScript the strip scrolls sideways: the keyboard must be able to reach it too.
        tabIndex={hydrated ? undefined : 0}
      >
        <div
          className="banner__track"
          style={hydrated ? { transform: `translateX(-${index * 100}%)` } : undefined}
        >
          {images.map((image, slide) => (
            <div
              key={image._id}
              id={`banner-slide-${slide + 1}`}
              className="banner__slide"
              role="group"
              aria-roledescription="slide"
              aria-label={`${slide + 1} of ${count}`}
              aria-hidden={hydrated && slide !== index ? true : undefined}
            >
              <Picture
                picture={{
                  url: image.image,
                  width: image.imageWidth ?? BANNER_DRAWING_SIZE.width,
                  height: image.imageHeight ?? BANNER_DRAWING_SIZE.height,
                  // The artwork is decoration: what it advertises is the text beside it.
                  alt: "",
                }}
                // Every slide spans the banner, which spans the page (storefront.css .banner__slide img).
                sizes="100vw"
                // The first slide is the home page's largest first-screen picture.
                priority={slide === 0 ? "high" : "lazy"}
              />
              <div className="banner__text">
                <h2 className="banner__title">{image.title || BANNER_DEFAULTS.title}</h2>
                <p className="banner__subtitle">{image.subtitle || BANNER_DEFAULTS.subtitle}</p>
                <a
                  href={image.link || BANNER_DEFAULTS.link}
                  className="banner__cta"
                  // A slide out of view is hidden from assistive technology: keep its link out of the tab order too.
                  tabIndex={hydrated && slide !== index ? -1 : undefined}
                >
                  Shop now
                </a>
              </div>
            </div>
          ))}
        </div>
      </div>
      {hydrated && count > 1 ? (
        <>
          <button
            type="button"
            className="banner__arrow banner__arrow--previous"
            aria-label="Previous slide"
            onClick={() => show(index - 1)}
          >
            <span aria-hidden="true">‹</span>
          </button>
          <button
            type="button"
            className="banner__arrow banner__arrow--next"
            aria-label="Next slide"
            onClick={() => show(index + 1)}
          >
            <span aria-hidden="true">›</span>
          </button>
        </>
      ) : null}
      {count > 1 ? (
        <div className="banner__dots">
          {images.map((image, slide) =>
            hydrated ? (
              <button
                key={image._id}
                type="button"
                className="banner__dot"
                aria-label={`Show slide ${slide + 1}`}
                aria-current={slide === index ? "true" : undefined}
                onClick={() => show(slide)}
              />
            ) : (
              <a
                key={image._id}
                href={`#banner-slide-${slide + 1}`}
                className="banner__dot"
                aria-label={`Show slide ${slide + 1}`}
              />
            ),
          )}
        </div>
      ) : null}
    </section>
  );
}
