import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { get } from '../api';
import { ErrorNote, Loading } from '../components/bits';
import { PeriodPicker, usePeriod } from '../components/Period';
import { MATCHED_ON_PERSON, matchedOnPerson, SourceSelect } from '../components/Source';
import { useTimeZone, useWorkspace } from '../session';
import type { ConsoleDiagnosticsView } from '../../../contract/views';
import { EventDiagnosticsCard } from './diagnostics/EventDiagnosticsCard';
import { SourceFigures } from './diagnostics/SourceFigures';

/** Per TikTok event, what became of its conversions, as TikTok Events Manager's diagnostics show it; of one source when chosen. */
export function DiagnosticsPage() {
  const { ws, base } = useWorkspace();
  const timeZone = useTimeZone();
  const [period] = usePeriod(timeZone);
  const [params, setParams] = useSearchParams();
  const source = params.get('source') ?? '';
  const query = new URLSearchParams({ from: period.from, to: period.to, timeZone, ...(source ? { source } : {}) });
  const diagnostics = useQuery({
    queryKey: ['diagnostics', ws, query.toString()],
    queryFn: () => get<ConsoleDiagnosticsView>(`${base}/diagnostics?${query.toString()}`),
  });
  const chooseSource = (next: string) =>
    setParams((current) => {
      const kept = new URLSearchParams(current);
      if (next) kept.set('source', next);
      else kept.delete('source');
      return kept;
    });
  const data = diagnostics.data;
  return (
    <>
      <h1>Diagnostics</h1>
      <p className="hint">
        For each TikTok event, what became of the conversions whose event happened in the period: what Signalbox stored and what TikTok answered. Each figure opens the
        conversions it counts. On events that carry an amount (CompletePayment, Purchase, PlaceAnOrder, InitiateCheckout, AddPaymentInfo, AddToCart) TikTok recommends a
        value, a currency and the contents (or content IDs): its value optimisation and shopping ads read them.
      </p>
      <PeriodPicker timeZone={timeZone} />
      <div className="filters">
        <SourceSelect value={source} onChange={chooseSource} />
      </div>
      {diagnostics.isPending && <Loading what="diagnostics" />}
      {diagnostics.isError && <ErrorNote error={diagnostics.error} />}
      {data && (
        <>
          <SourceFigures sources={data.sources} chosen={data.source} ws={ws} period={period} />
          {(matchedOnPerson(data.source) || (data.source === null && data.sources.some((s) => matchedOnPerson(s.source)))) && <p className="muted">{MATCHED_ON_PERSON}</p>}
          {data.events.length === 0 ? (
            <p className="empty">No TikTok event yet: add a conversion rule, and its events show here once they arrive.</p>
          ) : (
            <div className="diagnostics">
              {data.events.map((event) => (
                <EventDiagnosticsCard key={event.tiktokEvent} event={event} ws={ws} period={period} source={data.source} />
              ))}
            </div>
          )}
        </>
      )}
    </>
  );
}
