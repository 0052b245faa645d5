import { notifications } from "@mantine/notifications";
import { Link } from "@remix-run/react";
import { useEffect, useState } from "react";

const FLASH_NOTIFICATION_ID = "flash-message";

export interface Toast {
  type: "success" | "error" | "info";
  title?: string;
  message: string;
  /** A way on from the message, such as "View cart" after "Add to cart". */
  link?: { href: string; label: string };
}

function ToastLink({ link }: { link: Toast["link"] }) {
  if (!link) return null;
  return (
    <Link to={link.href} className="flash-toast__link">
      {link.label}
    </Link>
  );
}

/**
 * Shows a toast as a Mantine notification. One at a time: a new message
 * replaces the one on screen in place (update) instead of stacking beside it
 * while the old one animates out; show() adds it when none is on screen (it
 * ignores an id that is already shown).
 */
export function showToast(toast: Toast) {
  const notification = {
    id: FLASH_NOTIFICATION_ID,
    title: toast.title,
    message: toast.link ? (
      <span className="flash-toast__message">
        {toast.message} <ToastLink link={toast.link} />
      </span>
    ) : (
      toast.message
    ),
    color: toast.type === "error" ? "red" : toast.type === "success" ? "dark" : "blue",
    autoClose: 5000,
  };
  notifications.update(notification);
  notifications.show(notification);
}

/**
 * A server message (the spec's toast). Rendered as markup so that it shows
 * without JavaScript; once hydrated, it hands over to a Mantine notification
 * (one at a time, errors in red) and the markup disappears.
 */
export function FlashToast({ toast }: { toast: Toast | null | undefined }) {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => {
    setHydrated(true);
    if (toast) showToast(toast);
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
