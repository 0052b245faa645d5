/**
 * A one-shot message (a toast): an action sets it in the flash cookie
 * (app/web/session.server.ts) and the next page shows it, as markup without
 * JavaScript and as a notification with it.
 */
type FlashType = "success" | "error" | "info";
export interface FlashMessage {
  type: FlashType;
  title?: string;
  message: string;
  /** A way on from the message, such as "View cart" after "Add to cart". */
  link?: { href: string; label: string };
}
