import { PrefetchPageLinks, useNavigate } from "react-router";
import { useEffect, useState, type AnchorHTMLAttributes } from "react";

/**
 * Links that cost the server only their <a> (docs/decisions/0006). React Router's <Link> runs a
 * dozen router hooks for every link it renders, and a storefront page has about
 * forty of them (the header's menu twice, the sort menu, the pager, the footer):
 * a tenth of the page's server render. A PlainLink is an <a href> marked for
 * the one listener that `ClientLinkNavigation` (in the root layout) keeps on the
 * document once scripts run: what <Link> does, done for all of them.
 *
 * - An ordinary click navigates on the client; to the URL already shown it
 *   replaces the history entry, as <Link> does. A click with a modifier key,
 *   another button, another target or another origin is left to the browser.
 * - `keepScroll` is <Link preventScrollReset>.
 * - `prefetch="intent"` fetches the page's code and data after the pointer or
 *   the focus rests on it for 100 ms, as <Link prefetch="intent">.
 * - `onIntent` runs when the pointer enters the link or the focus reaches it
 *   (for work a click will need, such as fetching a drawer's code).
 * - `data-discover`, as <Link> renders it, lets React Router learn the route behind
 *   the link as soon as it is on the page (lazy route discovery).
 *
 * Without JavaScript it is a plain link, as <Link> is.
 */
export function PlainLink({
  to,
  keepScroll = false,
  prefetch,
  className,
  rel,
  role,
  onClick,
  onIntent,
  children,
  "aria-current": ariaCurrent,
  "aria-label": ariaLabel,
}: Pick<
  AnchorHTMLAttributes<HTMLAnchorElement>,
  "className" | "rel" | "role" | "onClick" | "children" | "aria-current" | "aria-label"
> & {
  to: string;
  keepScroll?: boolean;
  prefetch?: "intent";
  onIntent?: () => void;
}) {
  // The attributes one by one, not a rest and a spread of the props: one object of one shape for every
  // link, which rendering forty of them per page notices (2.5 % of the 403 page, docs/decisions/0006).
  return (
    <a
      href={to}
      className={className}
      rel={rel}
      role={role}
      aria-current={ariaCurrent}
      aria-label={ariaLabel}
      onClick={onClick}
      onPointerEnter={onIntent}
      onFocus={onIntent}
      data-discover="true"
      data-client-link={keepScroll ? "keep-scroll" : ""}
      data-prefetch={prefetch}
    >
      {children}
    </a>
  );
}

const INTENT_DELAY_MS = 100;

/** A click that the browser should handle itself: another button, a modifier key, another target. */
export function isModifiedClick(event: MouseEvent, anchor: HTMLAnchorElement): boolean {
  return (
    event.button !== 0 ||
    event.metaKey ||
    event.altKey ||
    event.ctrlKey ||
    event.shiftKey ||
    (Boolean(anchor.target) && anchor.target !== "_self") ||
    anchor.hasAttribute("download")
  );
}

function clientLinkOf(target: EventTarget | null): HTMLAnchorElement | null {
  const anchor = target instanceof Element ? target.closest("a[data-client-link]") : null;
  return anchor instanceof HTMLAnchorElement ? anchor : null;
}

function pathOf(url: URL | Location): string {
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The document's listener for every PlainLink (render it once, in the root layout). */
export function ClientLinkNavigation() {
  const navigate = useNavigate();
  const [intent, setIntent] = useState<string | null>(null);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let pointed: HTMLAnchorElement | null = null;
    const onClick = (event: MouseEvent) => {
      const anchor = clientLinkOf(event.target);
      if (!anchor || event.defaultPrevented || isModifiedClick(event, anchor)) return;
      const url = new URL(anchor.href);
      if (url.origin !== window.location.origin) return;
      event.preventDefault();
      const to = pathOf(url);
      navigate(to, {
        replace: to === pathOf(window.location),
        preventScrollReset: anchor.dataset.clientLink === "keep-scroll",
      });
    };
    const startIntent = (event: Event) => {
      const anchor = clientLinkOf(event.target);
      if (!anchor || anchor === pointed || anchor.dataset.prefetch !== "intent") return;
      const url = new URL(anchor.href);
      if (url.origin !== window.location.origin) return;
      pointed = anchor;
      clearTimeout(timer);
      timer = setTimeout(() => setIntent(`${url.pathname}${url.search}`), INTENT_DELAY_MS);
    };
    const endIntent = (event: Event) => {
      const anchor = clientLinkOf(event.target);
      if (!anchor || anchor.dataset.prefetch !== "intent") return;
      // Moving within the link is not leaving it.
      const next = (event as MouseEvent | FocusEvent).relatedTarget;
      if (next instanceof Node && anchor.contains(next)) return;
      pointed = null;
      clearTimeout(timer);
      setIntent(null);
    };
    document.addEventListener("click", onClick);
    document.addEventListener("mouseover", startIntent);
    document.addEventListener("focusin", startIntent);
    document.addEventListener("touchstart", startIntent, { passive: true });
    document.addEventListener("mouseout", endIntent);
    document.addEventListener("focusout", endIntent);
    return () => {
      clearTimeout(timer);
      document.removeEventListener("click", onClick);
      document.removeEventListener("mouseover", startIntent);
      document.removeEventListener("focusin", startIntent);
      document.removeEventListener("touchstart", startIntent);
      document.removeEventListener("mouseout", endIntent);
      document.removeEventListener("focusout", endIntent);
    };
  }, [navigate]);
  return intent ? <PrefetchPageLinks page={intent} /> : null;
}
