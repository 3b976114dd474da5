import { Link } from 'react-router';
import type { PeriodChoice } from '../../components/Period';
import { sourceName } from '../../components/Source';
import { number } from '../../format';
import type { ConversionSource, SourceDiagnosticsView } from '../../../../contract/views';

/** What became of each source's conversions of the period, each opening them on the Conversions page. */
export function SourceFigures({ sources, chosen, ws, period }: { sources: SourceDiagnosticsView[]; chosen: ConversionSource | null; ws: string; period: PeriodChoice }) {
  if (sources.length === 0) return null;
  return (
    <section aria-labelledby="by-source">
      <h2 id="by-source">{chosen === null ? 'By source' : sourceName(chosen)}</h2>
      <ul className="source-figures">
        {sources.map((s) => (
          <li key={s.source}>
            <Link to={`/w/${ws}/conversions?${new URLSearchParams({ source: s.source, from: period.from, to: period.to }).toString()}`}>{sourceName(s.source)}</Link>: {number(s.received)} received,{' '}
            {number(s.delivered)} delivered, {number(s.failed)} failed, {number(s.skipped)} skipped{s.pending > 0 ? `, ${number(s.pending)} still being sent` : ''}
          </li>
        ))}
      </ul>
    </section>
  );
}
