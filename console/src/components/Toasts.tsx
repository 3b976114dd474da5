import { Button, Text, UNSTABLE_Toast as Toast, UNSTABLE_ToastContent as ToastContent, UNSTABLE_ToastQueue as ToastQueue, UNSTABLE_ToastRegion as ToastRegion } from 'react-aria-components';

const queue = new ToastQueue<string>({ maxVisibleToasts: 3 });

/** A short confirmation in the corner of the screen ("Settings saved"), gone after a few seconds. */
export function notify(text: string) {
  queue.add(text, { timeout: 5_000 });
}

/** Where `notify` shows its confirmations (react-aria's toast region: announced, dismissable, paused on hover). */
export function Toasts() {
  return (
    <ToastRegion queue={queue} className="toasts">
      {({ toast }) => (
        <Toast toast={toast} className="toast">
          <ToastContent>
            <Text slot="title">{toast.content}</Text>
          </ToastContent>
          <Button slot="close" className="toast-close" aria-label="Dismiss">
            ×
          </Button>
        </Toast>
      )}
    </ToastRegion>
  );
}
