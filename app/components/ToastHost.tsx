import { lazy, Suspense, useSyncExternalStore } from "react";

const NotificationsHost = lazy(() => import("./NotificationsHost"));

let wanted = false;
const listeners = new Set<() => void>();

/** Asks for the notification container (showToast calls it before it shows the first toast). */
export function requestToastHost() {
  if (wanted) return;
  wanted = true;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Where toasts appear once scripts run: nothing until the first toast, then
 * Mantine's notification container, loaded on demand. Without JavaScript the
 * flash message is plain markup (FlashToast) and this renders nothing.
 */
export function ToastHost() {
  const show = useSyncExternalStore(
    subscribe,
    () => wanted,
    () => false,
  );
  if (!show) return null;
  return (
    <Suspense fallback={null}>
      <NotificationsHost />
    </Suspense>
  );
}
