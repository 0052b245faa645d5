import { Link } from "@remix-run/react";

/** A message for the shopper: the server's flash message or a toast after an action. */
export interface Toast {
  type: "success" | "error" | "info";
  title?: string;
  message: string;
  /** A way on from the message, such as "View cart" after "Add to cart". */
  link?: { href: string; label: string };
}

/** The toast's way on, in the markup toast and in the notification alike. */
export function ToastLink({ link }: { link: Toast["link"] }) {
  if (!link) return null;
  return (
    <Link to={link.href} className="flash-toast__link">
      {link.label}
    </Link>
  );
}
