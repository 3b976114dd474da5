import { useQuery } from '@tanstack/react-query';
import { get } from '../api';
import { ErrorNote, Loading } from '../components/bits';
import { PeriodPicker, usePeriod } from '../components/Period';
import { useTimeZone, useWorkspace } from '../session';
import type { ConsoleDiagnosticsView } from '../../../contract/views';
import { EventDiagnosticsCard } from './diagnostics/EventDiagnosticsCard';

/** Per TikTok event, what became of its conversions, as TikTok Events Manager's diagnostics show it. */
export function DiagnosticsPage() {
  const { ws, base } = useWorkspace();
  const timeZone = useTimeZone();
  const [period] = usePeriod(timeZone);
  const diagnostics = useQuery({
    queryKey: ['diagnostics', ws, period],
    queryFn: () => get<ConsoleDiagnosticsView>(`${base}/diagnostics?from=${period.from}&to=${period.to}&timeZone=${encodeURIComponent(timeZone)}`),
  });
  return (
    <>
      <h1>Diagnostics</h1>
      <p className="hint">
        For each TikTok event, what became of the conversions whose event happened in the period: what Signalbox stored and what TikTok answered. Each figure opens the
        conversions it counts. On events that carry an amount (CompletePayment, Purchase, PlaceAnOrder, InitiateCheckout, AddPaymentInfo, AddToCart) TikTok recommends a
        value, a currency and the contents (or content IDs): its value optimisation and shopping ads read them.
      </p>
      <PeriodPicker timeZone={timeZone} />
      {diagnostics.isPending && <Loading what="diagnostics" />}
      {diagnostics.isError && <ErrorNote error={diagnostics.error} />}
      {diagnostics.data &&
        (diagnostics.data.events.length === 0 ? (
          <p className="empty">No TikTok event yet: add a conversion rule, and its events show here once they arrive.</p>
        ) : (
          <div className="diagnostics">
            {diagnostics.data.events.map((event) => (
              <EventDiagnosticsCard key={event.tiktokEvent} event={event} ws={ws} period={period} />
            ))}
          </div>
        ))}
    </>
  );
}
