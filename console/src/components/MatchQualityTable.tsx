import type { ColumnDef } from '@tanstack/react-table';
import { number, percent } from '../format';
import { MATCH_KEYS } from '../words';
import { DataTable } from './DataTable';
import { MATCHED_ON_PERSON, matchedOnPerson, sourceName } from './Source';
import type { MatchQualityView } from '../../../contract/overview-views';

type Row = MatchQualityView['events'][number];

const keyName = (key: string) => MATCH_KEYS[key] ?? key;

const COLUMNS: ColumnDef<Row, unknown>[] = [
  { header: 'TikTok event', accessorKey: 'tiktokEvent' },
  { header: 'Source', cell: ({ row }) => (row.original.source === null ? '–' : sourceName(row.original.source)) },
  {
    header: 'Estimated match quality',
    cell: ({ row }) => (row.original.estimate === null ? <span className="muted">no delivered conversion</span> : <strong>{row.original.estimate.score.toFixed(1)} of 10</strong>),
  },
  { header: 'Delivered conversions read', cell: ({ row }) => number(row.original.delivered) },
  {
    header: 'Most useful key to add',
    cell: ({ row }) => {
      const add = row.original.estimate?.keyToAdd;
      if (row.original.estimate === null) return '–';
      if (add == null) return 'Nothing: every key is on every conversion.';
      return `${keyName(add.key)}: missing on ${percent(add.missingShare)}, up to ${add.points} point${add.points === 1 ? '' : 's'}`;
    },
  },
];

/** Overview: Signalbox's estimate of TikTok's Event Match Quality per TikTok event, and the key that would raise it most. */
export function MatchQualityTable({ matchQuality }: { matchQuality: MatchQualityView }) {
  return (
    <section aria-labelledby="match-quality">
      <h2 id="match-quality">Match quality (estimate)</h2>
      <p className="muted">
        An estimate by Signalbox, 0 to 10, from the match keys the delivered conversions of this period carried (the newest {number(matchQuality.events[0]?.sampleLimit ?? 2000)} of each event and source at most). TikTok
        shows its own Event Match Quality in Events Manager and gives it through no API, so the two can differ. Each key earns its points in proportion to the share of conversions that carried it:{' '}
        {matchQuality.points.map((p) => `${keyName(p.key)} ${p.points}`).join(', ')}.
      </p>
      {matchQuality.events.some((e) => matchedOnPerson(e.source)) && <p className="muted">{MATCHED_ON_PERSON}</p>}
      <DataTable rows={matchQuality.events} columns={COLUMNS} empty="No TikTok event yet: add a conversion rule, and each of its TikTok events gets a score once conversions are delivered." caption="Estimated match quality per TikTok event and source" />
    </section>
  );
}
