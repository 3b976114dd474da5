import { lazy, Suspense, type ReactNode } from 'react';

// The overlay code loads when a dialog first opens, so it is in no page's first load.
const ModalDialog = lazy(() => import('./ModalDialog'));

/** A modal dialog with `title`, shown while `isOpen`; `onClose` is called on Escape, a click outside or Cancel. */
export function LazyModal({ isOpen, title, onClose, children }: { isOpen: boolean; title: ReactNode; onClose: () => void; children: ReactNode }) {
  if (!isOpen) return null;
  return (
    <Suspense fallback={null}>
      <ModalDialog title={title} onClose={onClose}>
        {children}
      </ModalDialog>
    </Suspense>
  );
}
