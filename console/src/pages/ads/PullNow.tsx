import { useMutation } from '@tanstack/react-query';
import { Button } from 'react-aria-components';
import { api } from '../../api';
import { FormError } from '../../components/Form';

/**
 * "Pull now": runs the workspace's statistics schedule at once (as the settings API's `stats/pull` does). The page
 * then asks for the report every few seconds until its `statsPulledAt` moves (see `pull-outcome.ts`).
 */
export function PullNow({ base, editor, pulling, onStarted }: { base: string; editor: boolean; pulling: boolean; onStarted: () => void }) {
  const pull = useMutation({
    mutationFn: () => api('POST', `${base}/ads/pull`),
    meta: { done: 'Pulling TikTok’s figures now: this page refreshes when they arrive' },
    onSuccess: onStarted,
  });
  return (
    <div className="pull">
      <Button className="button small" onPress={() => pull.mutate()} isDisabled={!editor || pulling} isPending={pull.isPending}>
        {pulling ? 'Pulling…' : 'Pull now'}
      </Button>
      {!editor && <span className="muted">Only an editor or owner can pull figures; they are pulled every hour by themselves.</span>}
      <FormError error={pull.error} />
    </div>
  );
}
