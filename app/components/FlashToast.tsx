import { Link } from "react-router";
import { useEffect, useState } from "react";
import type { Toast } from "~/lib/shared/toast";
import overlayStylesHref from "~/styles/mantine-overlays.css?url";
import { requestToastHost } from "./ToastHost";

// Here rather than in a module of their own: every page loads this module (the root imports it), while
// esbuild would put a module that the cart drawer and the pages import too in a chunk of its own, one more
// file for every page to preload (docs/decisions/0008).

let stylesLoaded: Promise<void> | undefined;

/**
 * Loads Mantine's styles for the Drawer, Modal and notifications (once per
 * page load) and resolves when they apply. The storefront's HTML links none of
 * Mantine's component styles (they held up its first paint, docs/decisions/0008); the
 * cart drawer, the product dialog's modal and the notifications are loaded on
 * first use, and wait for these styles as they wait for their code, so that
 * they never show unstyled. The link goes before the page's stylesheets, where
 * Mantine's styles have always been, so that the shop's rules still override
 * Mantine's. React does not manage it, so navigations keep it. A failed load
 * resolves too: an unstyled overlay beats one that never opens.
 */
function loadMantineOverlayStyles(): Promise<void> {
  stylesLoaded ??= new Promise<void>((resolve) => {
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = overlayStylesHref;
    link.addEventListener("load", () => resolve(), { once: true });
    link.addEventListener("error", () => resolve(), { once: true });
    document.head.insertBefore(link, document.head.querySelector('link[rel="stylesheet"]'));
  });
  return stylesLoaded;
}

/** A module loaded on demand that renders Mantine overlays, resolved once its styles apply as well. */
export function withMantineOverlayStyles<T>(loading: Promise<T>): Promise<T> {
  return Promise.all([loading, loadMantineOverlayStyles()]).then(([module]) => module);
}

export type { Toast };

function ToastLink({ link }: { link: Toast["link"] }) {
  if (!link) return null;
  return (
    <Link to={link.href} className="flash-toast__link">
      {link.label}
    </Link>
  );
}

/**
 * Shows a toast as a Mantine notification (one at a time, errors in red).
 * Mantine's notifications and their styles are loaded with the first toast
 * (docs/decisions/0008).
 */
export function showToast(toast: Toast): Promise<void> {
  requestToastHost();
  // The message is built here, so that the lazily loaded host imports nothing of this module back.
  const message = toast.link ? (
    <span className="flash-toast__message">
      {toast.message} <ToastLink link={toast.link} />
    </span>
  ) : (
    toast.message
  );
  return withMantineOverlayStyles(import("./NotificationsHost")).then((host) =>
    host.showNotification(toast, message),
  );
}

/**
 * A server message (the spec's toast). Rendered as markup so that it shows
 * without JavaScript; once hydrated, it hands over to a Mantine notification
 * (one at a time, errors in red) and the markup disappears.
 */
export function FlashToast({ toast }: { toast: Toast | null | undefined }) {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => {
    if (!toast) {
      setHydrated(true);
      return;
    }
    // The markup stays until the notification is on screen (its code loads with the first toast).
    let current = true;
    void showToast(toast).then(() => {
      if (current) setHydrated(true);
    });
    return () => {
      current = false;
    };
  }, [toast]);
  if (!toast || hydrated) return null;
  return (
    <div
      className={`flash-toast flash-toast--${toast.type}`}
      role={toast.type === "error" ? "alert" : "status"}
      data-testid="flash-toast"
    >
      {toast.title ? <strong>{toast.title}</strong> : null}
      <span>{toast.message}</span>
      <ToastLink link={toast.link} />
    </div>
  );
}
