import { Link } from "@remix-run/react";
import { useEffect, useState } from "react";
import { withMantineOverlayStyles } from "./mantine-overlay-styles";
import { requestToastHost } from "./ToastHost";

export interface Toast {
  type: "success" | "error" | "info";
  title?: string;
  message: string;
  /** A way on from the message, such as "View cart" after "Add to cart". */
  link?: { href: string; label: string };
}

export function ToastLink({ link }: { link: Toast["link"] }) {
  if (!link) return null;
  return (
    <Link to={link.href} className="flash-toast__link">
      {link.label}
    </Link>
  );
}

/**
 * Shows a toast as a Mantine notification (one at a time, errors in red).
 * Mantine's notifications and their styles are loaded with the first toast (issue 10).
 */
export function showToast(toast: Toast): Promise<void> {
  requestToastHost();
  return withMantineOverlayStyles(import("./NotificationsHost")).then((host) => host.showNotification(toast));
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
