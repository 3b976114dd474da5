import { Button, Text, UNSTABLE_Toast as Toast, UNSTABLE_ToastContent as ToastContent, UNSTABLE_ToastQueue as ToastQueue, UNSTABLE_ToastRegion as ToastRegion } from 'react-aria-components';

const queue = new ToastQueue<string>({ maxVisibleToasts: 3 });

/**
 * A short confirmation in the corner of the screen ("Settings saved"), gone after a few seconds; with `until: 'closed'`
 * it stays until the returned function closes it (a "Pulling…" that lasts as long as the pull).
 */
export function notify(text: string, { until = 'timeout' }: { until?: 'timeout' | 'closed' } = {}): () => void {
  const key = queue.add(text, until === 'timeout' ? { timeout: 5_000 } : {});
  return () => queue.close(key);
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
