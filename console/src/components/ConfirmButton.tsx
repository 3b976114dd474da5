import { useState, type ReactNode } from 'react';
import { Button } from 'react-aria-components';
import { LazyModal } from './LazyModal';

/** A button that asks before doing something that cannot be undone. */
export function ConfirmButton({ label, title, children, confirm, onConfirm }: { label: string; title: ReactNode; children: ReactNode; confirm: string; onConfirm: () => void }) {
  const [open, setOpen] = useState(false);
  const close = () => setOpen(false);
  return (
    <>
      <Button className="button small danger" onPress={() => setOpen(true)}>
        {label}
      </Button>
      <LazyModal isOpen={open} title={title} onClose={close}>
        <div>{children}</div>
        <div className="actions">
          <Button className="button" onPress={close} autoFocus>
            Cancel
          </Button>
          <Button
            className="button danger"
            onPress={() => {
              onConfirm();
              close();
            }}
          >
            {confirm}
          </Button>
        </div>
      </LazyModal>
    </>
  );
}
