import { useSearchParams } from 'react-router';
import { addDays, dayIn } from '../format';

const PRESETS = [
  ['today', 'Today', 0],
  ['7d', 'Last 7 days', 6],
  ['28d', 'Last 28 days', 27],
  ['90d', 'Last 90 days', 89],
] as const;

export interface PeriodChoice {
  from: string;
  to: string;
  timeZone: string;
}

/** The period of a page, kept in the URL (`?period=28d` or `?from=…&to=…`), in days of `timeZone`. */
export function usePeriod(timeZone: string): [PeriodChoice, (next: Record<string, string>) => void, string] {
  const [params, setParams] = useSearchParams();
  const today = dayIn(new Date(), timeZone);
  const preset = PRESETS.find(([key]) => key === (params.get('period') ?? '7d'));
  const from = params.get('from');
  const to = params.get('to');
  const choice = from && to && !params.get('period') ? { from, to, timeZone } : { from: addDays(today, -(preset?.[2] ?? 6)), to: today, timeZone };
  const key = from && to && !params.get('period') ? 'custom' : (preset?.[0] ?? '7d');
  // Only the period changes: anything else in the address (a drill-down, a filter) stays.
  const choose = (next: Record<string, string>) =>
    setParams((current) => {
      const kept = new URLSearchParams(current);
      for (const name of ['period', 'from', 'to']) kept.delete(name);
      for (const [name, value] of Object.entries(next)) kept.set(name, value);
      return kept;
    });
  return [choice, choose, key];
}

export function PeriodPicker({ timeZone }: { timeZone: string }) {
  const [choice, choose, key] = usePeriod(timeZone);
  return (
    <fieldset className="period">
      <legend>Period</legend>
      {PRESETS.map(([value, label]) => (
        <button key={value} type="button" className={`button small${key === value ? ' selected' : ''}`} aria-pressed={key === value} onClick={() => choose({ period: value })}>
          {label}
        </button>
      ))}
      <label>
        From <input type="date" value={choice.from} max={choice.to} onChange={(e) => e.target.value && choose({ from: e.target.value, to: choice.to })} />
      </label>
      <label>
        to <input type="date" value={choice.to} min={choice.from} onChange={(e) => e.target.value && choose({ from: choice.from, to: e.target.value })} />
      </label>
      <span className="muted">Days in {timeZone}</span>
    </fieldset>
  );
}
