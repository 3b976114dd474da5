import { useMutation } from '@tanstack/react-query';
import { useId } from 'react';
import { Button } from 'react-aria-components';
import { api } from '../../api';
import { WhyNot } from '../../components/bits';
import { FormError } from '../../components/FormError';
import { notify } from '../../components/Toasts';

/**
 * "Pull now": runs the workspace's statistics schedule at once (as the settings API's `stats/pull` does). Its notice
 * stays while the pull runs: `onStarted` gets the function that closes it, and the page asks for the report every few
 * seconds until its `statsPulledAt` moves (see `pull-outcome.ts`).
 */
export function PullNow({ base, cannot, pulling, onStarted }: { base: string; cannot: string | null; pulling: boolean; onStarted: (closeNotice: () => void) => void }) {
  const whyId = useId();
  const pull = useMutation({
    mutationFn: () => api('POST', `${base}/ads/pull`),
    onSuccess: () => onStarted(notify('Pulling TikTok’s figures now: this page refreshes when they arrive', { until: 'closed' })),
  });
  return (
    <div className="pull">
      <Button className="button small" onPress={() => pull.mutate()} isDisabled={cannot !== null || pulling} aria-describedby={cannot === null ? undefined : whyId} isPending={pull.isPending}>
        {pulling ? 'Pulling…' : 'Pull now'}
      </Button>
      {cannot !== null && <WhyNot id={whyId}>{cannot}</WhyNot>}
      <FormError error={pull.error} />
    </div>
  );
}
