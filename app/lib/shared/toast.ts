/**
 * A message shown to the shopper: the flash message's markup without
 * JavaScript, a Mantine notification with it. Types only, so that the
 * notifications chunk and the page's toast code share it without importing
 * each other.
 */
export interface Toast {
  type: "success" | "error" | "info";
  title?: string;
  message: string;
  /** A way on from the message, such as "View cart" after "Add to cart". */
  link?: { href: string; label: string };
}
