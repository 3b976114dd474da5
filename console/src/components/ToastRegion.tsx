import { Button, Text, UNSTABLE_Toast as Toast, UNSTABLE_ToastContent as ToastContent, UNSTABLE_ToastQueue as ToastQueue, UNSTABLE_ToastRegion as ReactAriaToastRegion } from 'react-aria-components';

/** Where `notify`'s confirmations show (react-aria's toast region: announced, dismissable, paused on hover). Loaded by `Toasts`. */
export default function ToastRegion({ queue }: { queue: ToastQueue<string> }) {
  return (
    <ReactAriaToastRegion queue={queue} className="toasts">
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
    </ReactAriaToastRegion>
  );
}
