import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { get } from '../api';
import { ErrorNote, Loading, Status } from '../components/bits';
import { DataTable } from '../components/DataTable';
import { Pager } from '../components/Pager';
import { sourceName, SourceSelect } from '../components/Source';
import { dateTime, money } from '../format';
import { useReasons } from '../reasons';
import { useTimeZone, useWorkspace } from '../session';
import { LINKED_FILTERS, LinkedFilters } from './conversions/LinkedFilters';
import type { ConsoleConversionPageView, ConsoleConversionRow } from '../../../contract/views';
import { SendAgainByFilter } from './conversions/SendAgainByFilter';

const FILTERS = ['status', 'source', 'reason', 'tiktokEvent', 'q', 'from', 'to', ...LINKED_FILTERS] as const;

/** The reason, TikTok's code, and whether it went without a click, in a few words. */
function reasonText(c: ConsoleConversionRow, label: (reason: string | null) => string): string {
  const why = label(c.reason) || (c.tiktokCode ? `TikTok code ${c.tiktokCode}` : null);
  return [why, c.sentWithoutClick ? 'sent without a click' : null].filter((part) => part !== null).join(' · ');
}

export function ConversionsPage() {
  const { ws, base } = useWorkspace();
  const timeZone = useTimeZone();
  const reasons = useReasons();
  const [params, setParams] = useSearchParams();
  const [cursors, setCursors] = useState<string[]>([]);
  const filters = Object.fromEntries(FILTERS.flatMap((name) => (params.get(name) ? [[name, params.get(name) as string]] : [])));
  const filter = new URLSearchParams({ ...filters, timeZone });
  const query = new URLSearchParams({ ...filters, timeZone, limit: '50', ...(cursors.length > 0 ? { cursor: cursors.at(-1) as string } : {}) });
  const [sentAt, setSentAt] = useState<number | null>(null);
  const page = useQuery({
    queryKey: ['conversions', ws, query.toString()],
    queryFn: () => get<ConsoleConversionPageView>(`${base}/conversions?${query.toString()}`),
    placeholderData: keepPreviousData,
    // While a shown conversion is pending the table follows it: briskly for a minute after "Send again", then slowly.
    refetchInterval: (q) => (q.state.data?.conversions.some((c) => c.status === 'pending') ? (sentAt !== null && Date.now() - sentAt < 60_000 ? 1_500 : 15_000) : false),
  });
  const columns: ColumnDef<ConsoleConversionRow, unknown>[] = [
    { header: 'When', accessorKey: 'eventTime', cell: (c) => <Link to={`/w/${ws}/conversions/${c.row.original.id}`}>{dateTime(c.row.original.eventTime)}</Link> },
    { header: 'Status', accessorKey: 'status', cell: (c) => <Status status={c.row.original.status} testMode={c.row.original.testMode} /> },
    { header: 'Reason', accessorKey: 'reason', cell: (c) => reasonText(c.row.original, reasons.label) },
    {
      header: 'TikTok event',
      accessorKey: 'tiktokEvent',
      cell: (c) => {
        const { tiktokEvent, messageEvent } = c.row.original;
        return messageEvent.of > 1 ? (
          <>
            {tiktokEvent} <span className="muted" title="TikTok events sent for this message">({messageEvent.position} of {messageEvent.of})</span>
          </>
        ) : (
          tiktokEvent
        );
      },
    },
    { header: 'Your event', accessorKey: 'sourceEvent', cell: (c) => <code>{c.row.original.sourceEvent}</code> },
    {
      header: 'Order',
      accessorKey: 'eventId',
      cell: (c) =>
        c.row.original.orderName ? (
          <>
            {c.row.original.orderName} <span className="muted">(ID <code>{c.row.original.eventId}</code>)</span>
          </>
        ) : (
          <code>{c.row.original.eventId}</code>
        ),
    },
    { header: 'Source', accessorKey: 'eventSource', cell: (c) => sourceName(c.row.original.eventSource) },
    { header: 'Value', accessorKey: 'value', cell: (c) => money(c.row.original.value, c.row.original.currency) },
  ];
  const setFilter = (form: FormData) => {
    setCursors([]);
    setParams(Object.fromEntries(FILTERS.flatMap((name) => (String(form.get(name) ?? '') !== '' ? [[name, String(form.get(name))]] : []))));
  };
  return (
    <>
      <h1>Conversions</h1>
      <form
        className="filters"
        aria-label="Filter conversions"
        onSubmit={(event) => {
          event.preventDefault();
          setFilter(new FormData(event.currentTarget));
        }}
      >
        <label>
          Search <input name="q" type="search" defaultValue={filters.q ?? ''} placeholder="order number such as #1001, order ID, user ID or email" />
        </label>
        <label>
          Status
          <select name="status" defaultValue={filters.status ?? ''}>
            <option value="">any</option>
            {['delivered', 'skipped', 'failed', 'pending'].map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </label>
        <SourceSelect value={filters.source ?? ''} />
        <label>
          Reason
          {/* Mounted again once the reasons arrive, so a reason from the URL shows as chosen. */}
          <select name="reason" key={reasons.all.length} defaultValue={filters.reason ?? ''}>
            <option value="">any</option>
            {reasons.all.map((r) => (
              <option key={r.reason} value={r.reason}>
                {r.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          TikTok event <input name="tiktokEvent" defaultValue={filters.tiktokEvent ?? ''} placeholder="CompletePayment" />
        </label>
        <label>
          From <input name="from" type="date" defaultValue={filters.from ?? ''} />
        </label>
        <label>
          to <input name="to" type="date" defaultValue={filters.to ?? ''} />
        </label>
        <button type="submit" className="button primary">
          Apply
        </button>
        <LinkedFilters />
      </form>
      <SendAgainByFilter filter={filter} onSent={() => setSentAt(Date.now())} />
      <p>
        <a className="button small" href={`/console/api/${base}/conversions.csv?${filter.toString()}`} download>
          Download these conversions (CSV)
        </a>
      </p>
      {page.isPending && <Loading what="conversions" />}
      {page.isError && <ErrorNote error={page.error} />}
      {page.data && <DataTable rows={page.data.conversions} columns={columns} empty="No conversion matches. Conversions appear when an event that a rule maps arrives." />}
      <Pager newer={cursors.length > 0 ? () => setCursors(cursors.slice(0, -1)) : null} older={page.data?.nextCursor ? () => setCursors([...cursors, page.data?.nextCursor as string]) : null} />
    </>
  );
}
