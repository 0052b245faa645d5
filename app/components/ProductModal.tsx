import { Modal } from "@mantine/core";
import { useLayoutEffect, useRef, type ReactNode } from "react";

/**
 * The product dialog once scripts run: Mantine's Modal (focus trap, Escape,
 * scroll lock). A chunk of its own, which ProductDialog loads when a dialog is
 * first shown, so that pages do not download it up front (docs/decisions/0008). Not in a
 * portal, like the plain dialog it replaces.
 *
 * `initialFocus` names the element to focus first instead of the first stop
 * (the Close link): the one that had the focus in the plain dialog.
 */
export default function ProductModal({
  title,
  onClose,
  closeLink,
  initialFocus,
  children,
}: {
  title: string;
  onClose: () => void;
  closeLink: ReactNode;
  initialFocus?: (content: HTMLElement) => HTMLElement | null;
  children: ReactNode;
}) {
  const content = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const target = content.current && initialFocus?.(content.current);
    if (!target) return;
    // At once, in the commit that removed the plain dialog's control (a key pressed now lands here), and
    // for the focus trap, which focuses `[data-autofocus]` a moment later.
    target.setAttribute("data-autofocus", "");
    target.focus({ preventScroll: true });
    // Only for the first focus, when the Modal mounts.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return (
    <Modal.Root opened onClose={onClose} withinPortal={false} size="56rem" padding="lg">
      <Modal.Overlay />
      {/* Mantine names the dialog after its title only once it is mounted: aria-label names it from the start. */}
      <Modal.Content ref={content} className="product-dialog" data-testid="product-dialog" aria-label={title}>
        <Modal.Header>
          <Modal.Title className="product-dialog__title">{title}</Modal.Title>
          {closeLink}
        </Modal.Header>
        <Modal.Body>{children}</Modal.Body>
      </Modal.Content>
    </Modal.Root>
  );
}
