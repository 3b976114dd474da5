import type { ClientResult } from './client-process';
import type { ClientName } from './clients/bench-client';
import type { SinkCounts } from './sink';

export interface RunFigures {
  name: ClientName;
  label: string;
  events: number;
  result?: ClientResult;
  failure?: string;
  sink: SinkCounts;
}

/** The target: at least 10× the fastest peer's events/s, at most a fifth of that peer's peak RSS. */
const SPEED_FACTOR = 10;
const MEMORY_FRACTION = 1 / 5;

const MB = 1024 * 1024;

/** Events per second from the first track call to the last event the sink received. */
function eventsPerSecond(run: RunFigures): number | undefined {
  if (!run.result || run.sink.events === 0) return undefined;
  const seconds = (run.sink.lastEventAt - run.result.startedAt) / 1000;
  return seconds > 0 ? run.sink.events / seconds : undefined;
}

function format(value: number | undefined, digits = 0): string {
  return value === undefined ? '-' : value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
}

export function printReport(runs: RunFigures[]): void {
  const rows = runs.map((run) => [
    run.label,
    format(run.events),
    format(run.sink.events),
    format(run.sink.duplicates),
    format(run.sink.requests),
    format(eventsPerSecond(run)),
    format(run.result?.cpuSeconds, 2),
    run.result ? `${format(run.result.peakRssBytes / MB)} MB` : '-',
    run.failure ?? (run.result?.errors ? `${run.result.errors} errors` : ''),
  ]);
  const header = ['client', 'track calls', 'delivered', 'duplicates', 'requests', 'events/s', 'CPU s', 'peak RSS', 'notes'];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column].length)));
  const line = (cells: string[]): string =>
    cells.map((cell, column) => (column === 0 || column === header.length - 1 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join('  ').trimEnd();
  console.log(`\n${line(header)}\n${line(widths.map((width) => '-'.repeat(width)))}`);
  for (const row of rows) console.log(line(row));
  console.log(
    'delivered: distinct events the sink received; duplicates: events received again after a retry. events/s: delivered\n' +
      'events from the first track call to the last new event counted by the sink. CPU s: the client process, same span.',
  );
  const rudderstack = runs.find((run) => run.name === 'rudderstack');
  if (rudderstack) {
    console.log(`${rudderstack.label} ran ${format(rudderstack.events)} calls only: its enqueue re-serializes the whole queue on every call.`);
  }
  printTarget(runs);
}

function printTarget(runs: RunFigures[]): void {
  const ours = runs.find((run) => run.name === 'signalbox');
  // Peers that ran the full workload; RudderStack runs a smaller one, so its rate is not comparable.
  const peers = runs.filter((run) => run.name !== 'signalbox' && run.name !== 'rudderstack' && run.events === ours?.events);
  const fastest = peers
    .filter((run) => eventsPerSecond(run) !== undefined)
    .sort((a, b) => (eventsPerSecond(b) ?? 0) - (eventsPerSecond(a) ?? 0))[0];
  const ourRate = ours && eventsPerSecond(ours);
  if (!ours?.result || ourRate === undefined || !fastest?.result) {
    console.log('\nTarget: not evaluated (needs @signalbox/api and a peer run with the same number of events).');
    return;
  }
  const peerRate = eventsPerSecond(fastest) ?? 0;
  const rateOk = ourRate >= SPEED_FACTOR * peerRate && ours.sink.events === ours.events;
  const memoryLimit = fastest.result.peakRssBytes * MEMORY_FRACTION;
  const memoryOk = ours.result.peakRssBytes <= memoryLimit;
  console.log(`\nTarget, against the fastest peer (${fastest.label}):`);
  console.log(
    `  events/s ≥ ${SPEED_FACTOR}× ${format(peerRate)} = ${format(SPEED_FACTOR * peerRate)}: ` +
      `${format(ourRate)} (${format(ourRate / peerRate, 1)}×), all delivered: ${ours.sink.events === ours.events} → ${rateOk ? 'PASS' : 'FAIL'}`,
  );
  console.log(
    `  peak RSS ≤ 1/5 of ${format(fastest.result.peakRssBytes / MB)} MB = ${format(memoryLimit / MB)} MB: ` +
      `${format(ours.result.peakRssBytes / MB)} MB → ${memoryOk ? 'PASS' : 'FAIL'}`,
  );
  if (!rateOk || !memoryOk) process.exitCode = 1;
}
