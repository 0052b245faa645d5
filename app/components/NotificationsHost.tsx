import { notifications, Notifications } from "@mantine/notifications";
import type { ReactNode } from "react";
import type { Toast } from "~/lib/shared/toast";

const FLASH_NOTIFICATION_ID = "flash-message";

/** How long a toast stays on screen; Mantine pauses the time while the pointer is over it. */
export const TOAST_MS = 5000;

/** Toasts shown so far: every other one is given a millisecond more (showNotification). */
let shown = 0;

/**
 * Shows a toast as a Mantine notification. One at a time: a new message
 * replaces the one on screen in place (update) instead of stacking beside it
 * while the old one animates out; show() adds it when none is on screen (it
 * ignores an id that is already shown).
 */
export function showNotification(toast: Toast, message: ReactNode) {
  const notification = {
    id: FLASH_NOTIFICATION_ID,
    title: toast.title,
    message,
    color: toast.type === "error" ? "red" : toast.type === "success" ? "dark" : "blue",
    // Mantine restarts a notification's timer only when its duration changes: a message that replaces the one on
    // screen would otherwise be closed when the one before it was due, however little of its time was left.
    autoClose: TOAST_MS + (shown++ % 2),
  };
  notifications.update(notification);
  notifications.show(notification);
}

/**
 * Mantine's notification container, in a chunk of its own with the rest of
 * Mantine's notifications: showToast loads it with the first toast and
 * ToastHost mounts it, so that pages without a toast do not download it
 * (docs/decisions/0008). The notifications store keeps what was shown before it mounts.
 */
export default function NotificationsHost() {
  return (
    <Notifications limit={1} position="top-center" autoClose={TOAST_MS} className="shop-notifications" />
  );
}
