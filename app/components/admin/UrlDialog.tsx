import { Drawer, Modal } from "@mantine/core";
import { Link, useNavigate } from "react-router";
import { useId, useState, type ReactNode } from "react";
import { useHydrated } from "~/lib/shared/use-hydrated";

interface UrlDialogProps {
  title: string;
  /** Where closing goes: the same page without the search param or path that opened the dialog. */
  closeTo: string;
  variant?: "modal" | "drawer";
  size?: string;
  children: ReactNode;
}

/**
 * A dialog that is a URL (?panel=new, ?edit=ID, /admin/orders/ID): the
 * server renders it open as a plain section with a close link, so it works
 * without JavaScript; once hydrated it becomes a Mantine Modal or Drawer
 * (focus trap, Escape, scroll lock) that closes by navigating to `closeTo`.
 */
export function UrlDialog({ title, closeTo, variant = "modal", size, children }: UrlDialogProps) {
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const [closing, setClosing] = useState(false);
  const titleId = useId();

  if (hydrated) {
    const close = () => {
      setClosing(true);
      navigate(closeTo, { preventScrollReset: true });
    };
    const shared = {
      opened: !closing,
      onClose: close,
      title,
      closeButtonProps: { "aria-label": "Close" },
      styles: { title: { fontWeight: 700, fontSize: "var(--mantine-font-size-lg)" } },
    };
    return variant === "drawer" ? (
      <Drawer {...shared} position="right" size={size ?? "md"} padding="lg">
        {children}
      </Drawer>
    ) : (
      <Modal {...shared} size={size ?? "lg"} centered>
        {children}
      </Modal>
    );
  }

  return (
    <>
      <Link
        to={closeTo}
        className="url-dialog-backdrop"
        aria-hidden="true"
        tabIndex={-1}
        preventScrollReset
      />
      <section
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        className={`url-dialog url-dialog--${variant}`}
      >
        <header className="url-dialog__header">
          <h2 id={titleId}>{title}</h2>
          <Link to={closeTo} className="url-dialog__close" aria-label="Close" preventScrollReset>
            ×
          </Link>
        </header>
        <div className="url-dialog__body">{children}</div>
      </section>
    </>
  );
}
