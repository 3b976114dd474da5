import { lazy, Suspense, useSyncExternalStore } from 'react';
import { UNSTABLE_ToastQueue as ToastQueue } from 'react-aria-components';

const queue = new ToastQueue<string>({ maxVisibleToasts: 3 });
let anyQueued = false;

// The region's code loads with the first toast, so it is in no page's first load.
const ToastRegion = lazy(() => import('./ToastRegion'));

/**
 * A short confirmation in the corner of the screen ("Settings saved"), gone after a few seconds; with `until: 'closed'`
 * it stays until the returned function closes it (a "Pulling…" that lasts as long as the pull).
 */
export function notify(text: string, { until = 'timeout' }: { until?: 'timeout' | 'closed' } = {}): () => void {
  anyQueued = true;
  const key = queue.add(text, until === 'timeout' ? { timeout: 5_000 } : {});
  return () => queue.close(key);
}

/** Where `notify` shows its confirmations, from the first one on. */
export function Toasts() {
  const shown = useSyncExternalStore(
    (changed) => queue.subscribe(changed),
    () => anyQueued,
  );
  if (!shown) return null;
  return (
    <Suspense fallback={null}>
      <ToastRegion queue={queue} />
    </Suspense>
  );
}
