import { Modal } from "@mantine/core";
import type { ReactNode } from "react";

/**
 * The product dialog once scripts run: Mantine's Modal (focus trap, Escape,
 * scroll lock). A chunk of its own, which ProductDialog loads when a dialog is
 * first shown, so that pages do not download it up front (issue 10). Not in a
 * portal, like the plain dialog it replaces.
 */
export default function ProductModal({
  title,
  onClose,
  closeLink,
  children,
}: {
  title: string;
  onClose: () => void;
  closeLink: ReactNode;
  children: ReactNode;
}) {
  return (
    <Modal.Root opened onClose={onClose} withinPortal={false} size="56rem" padding="lg">
      <Modal.Overlay />
      {/* Mantine names the dialog after its title only once it is mounted: aria-label names it from the start. */}
      <Modal.Content className="product-dialog" data-testid="product-dialog" aria-label={title}>
        <Modal.Header>
          <Modal.Title className="product-dialog__title">{title}</Modal.Title>
          {closeLink}
        </Modal.Header>
        <Modal.Body>{children}</Modal.Body>
      </Modal.Content>
    </Modal.Root>
  );
}
