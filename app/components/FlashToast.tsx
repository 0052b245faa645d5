import { notifications } from "@mantine/notifications";
import { useEffect, useState } from "react";

export interface Toast {
  type: "success" | "error" | "info";
  title?: string;
  message: string;
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
    if (!toast) return;
    notifications.clean();
    notifications.show({
      title: toast.title,
      message: toast.message,
      color: toast.type === "error" ? "red" : toast.type === "success" ? "dark" : "blue",
      autoClose: 5000,
    });
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
    </div>
  );
}
