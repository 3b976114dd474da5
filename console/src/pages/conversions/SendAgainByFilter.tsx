import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Button } from 'react-aria-components';
import { api, get } from '../../api';
import { FormError } from '../../components/FormError';
import { Loading, WhyNot } from '../../components/bits';
import { LazyModal } from '../../components/LazyModal';
import { canEdit, roleTooLow, useWorkspace } from '../../session';
import type { SendAgainCountView, SentAgainView } from '../../../../contract/send-again-views';

const plural = (n: number, one: string) => `${n.toLocaleString('en')} ${one}${n === 1 ? '' : 's'}`;

/** Why the button is not offered for this filter, or null. */
function unavailable(role: string | undefined, status: string | undefined): string | null {
  if (!canEdit(role)) return roleTooLow(role, 'editor', 'send conversions again');
  if (status === 'pending' || status === 'delivered') return `Only failed or skipped conversions are sent again; the filter shows ${status} ones.`;
  return null;
}

/**
 * "Send again" for every failed or skipped conversion the page's filter selects: a confirmation with the number,
 * then the send; the table refreshes by itself while they are processed.
 */
export function SendAgainByFilter({ filter, onSent }: { filter: URLSearchParams; onSent: () => void }) {
  const { base, data } = useWorkspace();
  const queries = useQueryClient();
  const [open, setOpen] = useState(false);
  const count = useQuery({
    queryKey: ['send-again-count', base, filter.toString()],
    queryFn: () => get<SendAgainCountView>(`${base}/conversions/send-again?${filter.toString()}`),
    enabled: open,
    staleTime: 0,
  });
  const send = useMutation({
    mutationFn: () => api<SentAgainView>('POST', `${base}/conversions/send-again?${filter.toString()}`),
    meta: { done: (_: never, answer: SentAgainView) => `${plural(answer.requeued, 'conversion')} sent again` },
    onSuccess: () => {
      setOpen(false);
      onSent();
      void queries.invalidateQueries({ queryKey: ['conversions'] });
    },
  });
  const why = unavailable(data?.role, filter.get('status') ?? undefined);
  const whyId = useId();
  const countId = useId();
  const n = count.data?.count ?? 0;
  const tooMany = count.data !== undefined && n > count.data.limit;
  return (
    <div className="send-again">
      <Button className="button" isDisabled={why !== null} aria-describedby={why === null ? undefined : whyId} onPress={() => setOpen(true)}>
        Send again…
      </Button>
      {why === null ? <span className="muted">Every failed or skipped conversion this filter selects.</span> : <WhyNot id={whyId}>{why}</WhyNot>}
      <LazyModal isOpen={open} title="Send again by this filter?" onClose={() => setOpen(false)}>
          {/* What the count says is also why the send button is disabled, when it is. */}
          <div id={countId}>
            {count.isPending && <Loading what="how many match" />}
            {count.isError && <FormError error={count.error} />}
            {count.data && (
              <>
                <p>
                  {n === 0
                    ? 'No failed or skipped conversion that could change matches this filter: nothing to send again.'
                    : tooMany
                      ? `${plural(n, 'conversion')} match: more than ${count.data.limit.toLocaleString('en')} at once. Narrow the filter (a shorter period, a reason or a TikTok event).`
                      : `${plural(n, 'conversion')} will be sent again. Each keeps its event ID, so TikTok counts it once.`}
                </p>
                {count.data.leftOut > 0 && (
                  <p className="muted">
                    {plural(count.data.leftOut, 'other conversion')} {count.data.leftOut === 1 ? 'matches but is' : 'match but are'} left out: sending {count.data.leftOut === 1 ? 'it' : 'them'} again could only skip{' '}
                    {count.data.leftOut === 1 ? 'it' : 'them'} again (no TikTok click, a click older than the attribution window, no rule for the event, or too old for TikTok).
                  </p>
                )}
              </>
            )}
          </div>
          <FormError error={send.error} />
          <div className="actions">
            <Button className="button" onPress={() => setOpen(false)} autoFocus>
              Cancel
            </Button>
            <Button className="button primary" isDisabled={count.data === undefined || n === 0 || tooMany} aria-describedby={countId} isPending={send.isPending} onPress={() => send.mutate()}>
              {count.data && n > 0 && !tooMany ? `Send ${plural(n, 'conversion')} again` : 'Send again'}
            </Button>
          </div>
      </LazyModal>
    </div>
  );
}
