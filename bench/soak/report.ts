import { SOURCES } from './ledger';
import { ALLOWED_GROWTH, MEMORY_WARM_UP_MS, MEMORY_WINDOW_MS } from './memory';
import type { SoakReport } from './soak';

const count = (n: number) => n.toLocaleString('en-US');
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const clock = (ms: number) => `${String(Math.floor(ms / 60_000)).padStart(2, '0')}:${String(Math.floor((ms % 60_000) / 1000)).padStart(2, '0')}`;
const megabytes = (bytes: number) => (bytes / 2 ** 20).toFixed(0);

function tally<T>(items: readonly T[], key: (item: T) => string): string {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return [...counts].sort(([a], [b]) => a.localeCompare(b)).map(([name, n]) => `${name} ${count(n)}`).join(', ');
}

/** The soak's figures and verdict as printed at the end of `npm run bench:soak`. */
export function formatReport(report: SoakReport): string[] {
  const { ledger, options } = report;
  const perSecond = (n: number) => `${(n / (report.loadMs / 1000)).toFixed(1)}/s`;
  const lines: string[] = [];
  const section = (title: string) => lines.push('', `== ${title}`);

  section('Load');
  lines.push(
    `${clock(report.loadMs)} of steady load, ${count(report.load.journeys)} journeys (${options.journeysPerSecond}/s) on two shops; machine load average ${report.loadAverage[0].toFixed(1)} at the start, ${report.loadAverage[1].toFixed(1)} at the end (2 cores, shared)`,
  );
  for (const source of SOURCES) {
    const sent = [...ledger.sent.values()].filter((m) => m.source === source).length;
    const answers = [...ledger.answers[source]].map(([answer, n]) => `${answer} ×${count(n)}`).join(', ');
    lines.push(`${source.padEnd(4)} ${count(sent).padStart(8)} messages (${perSecond(sent)}); requests answered: ${answers}`);
  }
  lines.push(`all  ${count(ledger.sent.size).padStart(8)} messages sent, ${count(ledger.acknowledged.size)} acknowledged (${perSecond(ledger.acknowledged.size)})`);

  section('Faults');
  for (const kill of report.faults.kills) {
    lines.push(`${clock(kill.atMs)} kill -9 ${kill.process.padEnd(8)} down ${seconds(kill.downMs)}, serving again ${seconds(kill.backAfterMs)} after its restart`);
  }
  for (const burst of report.faults.bursts) lines.push(`${clock(burst.atMs)} TikTok ${burst.family}: ${burst.name} for ${seconds(burst.forMs)}`);
  lines.push(`kills: ${tally(report.faults.kills, (k) => k.kind)}; bursts: ${tally(report.faults.bursts, (b) => b.family)}`);

  section('Conversions and TikTok');
  const delivered = report.conversions.filter((c) => c.status === 'delivered').length;
  lines.push(`drained in ${seconds(report.drainMs)} after the clients were done (bound ${seconds(options.drainMs)})`);
  lines.push(`${count(report.conversions.length)} conversions: ${tally(report.conversions, (c) => (c.reason === null ? c.status : `${c.status} (${c.reason})`))}`);
  lines.push(`${count(delivered)} delivered, ${perSecond(delivered)} over the load`);
  const resent = [...report.tiktok.counts.values()].filter((c) => c.accepted > c.counted).length;
  lines.push(
    `TikTok: ${count(report.tiktok.requests)} event/track requests, ${count(report.tiktok.faulted)} of them answered by a burst; ${count(resent)} event_ids sent again after a crash and deduplicated by TikTok`,
  );

  const { judged: allJudged } = report.memory;
  section(`Memory (MB, every ${seconds(options.sampleEveryMs)}; ${allJudged === undefined ? 'not judged' : `judged over ${clock(report.memory.fromMs)}–${clock(report.memory.toMs)}`})`);
  lines.push(
    `Judged over the load's last ${MEMORY_WINDOW_MS / 60_000} minutes, after at least ${MEMORY_WARM_UP_MS / 60_000} of warm-up. A process is judged when one PID ran through the whole window; flat when the median of the window's last quarter is at most ${ALLOWED_GROWTH * 100}% above its first quarter's.`,
  );
  for (const series of report.memory.series) {
    const judged = allJudged?.find((f) => f.series === series);
    const verdict =
      allJudged === undefined ? 'sampled' : judged === undefined ? 'not judged (did not run through the window)' : `${judged.flat ? 'flat' : 'GREW'}: ${megabytes(judged.firstQuarterBytes)} → ${megabytes(judged.lastQuarterBytes)} MB (${(judged.growth * 100).toFixed(1)}%)`;
    lines.push(`${series.name} pid ${series.pid} (${series.measure}, from ${clock(series.samples[0]?.atMs ?? 0)}): ${verdict}`);
    lines.push(`  ${series.samples.map((s) => megabytes(s.bytes)).join(' ')}`);
  }

  section('Verdict');
  for (const c of report.checks) lines.push(`${c.outcome}  ${c.name}: ${c.detail}`);
  lines.push('', `SOAK ${report.pass ? 'PASS' : 'FAIL'}`);
  return lines;
}
