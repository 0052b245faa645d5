import { notifications, Notifications } from "@mantine/notifications";
import type { ReactNode } from "react";
import type { Toast } from "~/lib/shared/toast";

const FLASH_NOTIFICATION_ID = "flash-message";

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
    autoClose: 5000,
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
  return <Notifications limit={1} position="top-center" autoClose={5000} className="shop-notifications" />;
}
