import type { ReactNode } from 'react';
import { Dialog, Heading, Modal } from 'react-aria-components';

/** react-aria's modal dialog: focus kept inside, Escape and a click outside close it. Loaded by `LazyModal`. */
export default function ModalDialog({ title, onClose, children }: { title: ReactNode; onClose: () => void; children: ReactNode }) {
  return (
    <Modal className="modal" isDismissable isOpen onOpenChange={(open) => open || onClose()}>
      <Dialog className="dialog">
        <Heading slot="title">{title}</Heading>
        {children}
      </Dialog>
    </Modal>
  );
}
