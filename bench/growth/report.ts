import type { CallTiming } from '../console/timing';
import type { SizeResult } from './measure';
import { pairedShare, pairedShares } from './paired';
import type { PhaseCost } from './phase-cost';
import type { StoreSize } from './sizes';

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const rate = (r: { events: number; seconds: number }) => r.events / r.seconds;
const verdict = (ok: boolean) => (ok ? 'PASS' : 'FAIL');

const batchCpu = (c: PhaseCost) => c.ingestCpuUs + c.postgresCpuUs;
const sharesOf = (r: SizeResult) => pairedShares(r.batchRoundRates, r.emptyBatchRoundRates);
const shareOf = (r: SizeResult) => pairedShare(r.batchRoundRates, r.emptyBatchRoundRates);

/** One table row a stored size: ingest, pipeline and CPU. */
export function printRates(results: readonly SizeResult[]): void {
  console.log(`\n${'stored events'.padStart(13)} ${'batch/s'.padStart(8)} ${'p50'.padStart(5)} ${'p99'.padStart(5)} ${'single/s'.padStart(8)} ${'p50'.padStart(5)} ${'p99'.padStart(5)} ${'failed'.padStart(6)} ${'µs CPU/ev b'.padStart(11)} ${'µs CPU/ev s'.padStart(11)} ${'pipeline/s'.padStart(10)} ${'p99 ms'.padStart(7)}`);
  for (const r of results) {
    console.log(
      [
        fmt(r.size).padStart(13),
        fmt(rate(r.batches)).padStart(8),
        fmt(r.batches.latency.p50).padStart(5),
        fmt(r.batches.latency.p99).padStart(5),
        fmt(rate(r.singles)).padStart(8),
        fmt(r.singles.latency.p50).padStart(5),
        fmt(r.singles.latency.p99).padStart(5),
        fmt(r.batches.failed + r.singles.failed).padStart(6),
        fmt(r.batchCost.ingestCpuUs).padStart(11),
        fmt(r.singleCost.ingestCpuUs).padStart(11),
        fmt(r.pipeline.perSecond, 1).padStart(10),
        fmt(r.pipeline.latency.p99).padStart(7),
      ].join(' '),
    );
  }
  console.log('(latencies in ms; CPU per event of the ingest process, b: batches, s: single events)');
  console.log(`\n${'stored events'.padStart(13)} ${'batch rounds/s'.padStart(22)} ${'PostgreSQL µs CPU/ev b'.padStart(22)} ${'blocks read/ev b'.padStart(16)} ${'buffer hits b'.padStart(13)} ${'PostgreSQL µs CPU/ev s'.padStart(22)} ${'blocks read/ev s'.padStart(16)} ${'buffer hits s'.padStart(13)}`);
  for (const r of results) {
    const cost = (c: PhaseCost) => [`${fmt(c.postgresCpuUs)} (${fmt(c.postgresSystemCpuUs)} sys)`.padStart(22), fmt(c.blocksRead, 2).padStart(16), `${fmt(c.bufferHitRatio * 100, 2)}%`.padStart(13)];
    console.log([fmt(r.size).padStart(13), r.batchRoundRates.map((n) => fmt(n)).join(' ').padStart(22), ...cost(r.batchCost), ...cost(r.singleCost)].join(' '));
  }
  console.log('(blocks read: from outside shared buffers, the page cache or the disk)');
  console.log(`\n${'stored events'.padStart(13)} ${'empty store beside it: rounds/s'.padStart(36)} ${'each round against its pair'.padStart(36)} ${'geomean'.padStart(7)} ${'µs CPU/ev ingest + PostgreSQL'.padStart(30)}`);
  for (const r of results) {
    const cpu = `${fmt(batchCpu(r.batchCost))} vs ${fmt(batchCpu(r.emptyBatchCost))} (${fmt(r.emptyBatchCost.ingestCpuUs)} + ${fmt(r.emptyBatchCost.postgresCpuUs)})`;
    console.log([fmt(r.size).padStart(13), r.emptyBatchRoundRates.map((n) => fmt(n)).join(' ').padStart(36), sharesOf(r).map((n) => `${fmt(n * 100, 1)}%`).join(' ').padStart(36), `${fmt(shareOf(r) * 100, 1)}%`.padStart(7), cpu.padStart(30)].join(' '));
  }
  console.log('(each round of batches on the grown store against the round on the empty store run just before or after it)');
}

/** Bytes per stored row of each table, table + TOAST + indexes. */
export function printFootprint(results: readonly SizeResult[]): void {
  console.log(`\n${'stored events'.padStart(13)} ${(results[0]?.tables ?? []).map((t) => `${t.table} rows, bytes/row`.padStart(34)).join(' ')}`);
  for (const r of results) {
    console.log(`${fmt(r.size).padStart(13)} ${r.tables.map((t) => `${fmt(t.rows)}, ${t.rows === 0 ? '-' : fmt(t.bytes / t.rows)}`.padStart(34)).join(' ')}`);
  }
  console.log(`\n${'stored events'.padStart(13)}  bytes per event in each part of events (all partitions)`);
  for (const r of results) {
    const events = r.tables.find((t) => t.table === 'events')?.rows ?? 0;
    const parts = [...r.eventsParts].sort((a, b) => b.bytes - a.bytes).map((p) => `${p.part} ${events === 0 ? '-' : fmt(p.bytes / events)}`);
    console.log(`${fmt(r.size).padStart(13)}  ${parts.join(', ')}`);
  }
}

/** The console API's p95 per call at each size (a call the store had no data for yet: -). */
export function printConsole(results: readonly SizeResult[]): void {
  console.log(`\nconsole API p95 ms (hot workspace)  ${results.map((r) => fmt(r.size).padStart(12)).join(' ')}`);
  for (const { label } of results.at(-1)?.console ?? []) {
    const p95 = (r: SizeResult) => r.console.find((call) => call.label === label)?.p95;
    console.log(`${label.padEnd(35)} ${results.map((r) => (p95(r) === undefined ? '-' : fmt(p95(r) as number, 1)).padStart(12)).join(' ')}`);
  }
}

/** Issue 49's target for the console: each call's p95 on the grown store within 1.5× of the empty store's. */
const CONSOLE_LIMIT = 1.5;

/** Each console call's p95 on the grown store against the empty one, with its verdict; true when every call passes. */
export function printConsoleVerdicts(grown: readonly CallTiming[], empty: readonly CallTiming[]): boolean {
  let all = true;
  for (const call of grown) {
    const then = empty.find((e) => e.label === call.label);
    if (then === undefined) {
      console.log(`  console, ${call.label}: ${fmt(call.p95, 1)} ms (the empty store has nothing to show there; no verdict)`);
      continue;
    }
    const pass = call.p95 <= CONSOLE_LIMIT * then.p95;
    all &&= pass;
    console.log(`  console, ${call.label}: p95 ${fmt(call.p95 / then.p95, 2)}× (${fmt(call.p95, 1)} vs ${fmt(then.p95, 1)} ms; <= ${CONSOLE_LIMIT}×): ${verdict(pass)}`);
  }
  return all;
}

/** The rate and p99 verdicts of `largest` against `baseline`: ≥ 90% of its rates, p99 ≤ 1.5×. */
function printAgainst(largest: SizeResult, baseline: SizeResult): void {
  const share = (name: string, now: number, then: number) => console.log(`  ${name} rate: ${fmt((now / then) * 100, 1)}% (${fmt(now, 1)} vs ${fmt(then, 1)}/s; >= 90%): ${verdict(now >= 0.9 * then)}`);
  const p99 = (name: string, now: number, then: number) => console.log(`  ${name} p99: ${fmt(now / then, 2)}× (${fmt(now)} vs ${fmt(then)} ms; <= 1.5×): ${verdict(now <= 1.5 * then)}`);
  share('ingest, batches', rate(largest.batches), rate(baseline.batches));
  p99('ingest, batches', largest.batches.latency.p99, baseline.batches.latency.p99);
  const cpu = (r: SizeResult) => batchCpu(r.batchCost);
  console.log(`  (ingest, batches: CPU per event of ingest and PostgreSQL ${fmt(cpu(largest))} vs ${fmt(cpu(baseline))} µs, ${fmt(cpu(largest) / cpu(baseline), 2)}×)`);
  share('ingest, single events', rate(largest.singles), rate(baseline.singles));
  p99('ingest, single events', largest.singles.latency.p99, baseline.singles.latency.p99);
  share('pipeline', largest.pipeline.perSecond, baseline.pipeline.perSecond);
  p99('pipeline', largest.pipeline.latency.p99, baseline.pipeline.latency.p99);
  printConsoleVerdicts(largest.console, baseline.console);
}

/**
 * Issue 30's targets: at the largest size ≥ 90% of the empty store's rates, p99 ≤ 1.5×; then the same against the
 * step `sameDays` (sizes.ts), which isolates the store's growth from the size of its days; bytes per event reported.
 */
export function printVerdicts(results: readonly SizeResult[], sameDays: number | undefined, sizes: readonly StoreSize[]): void {
  const largest = results.at(-1) as SizeResult;
  const described = (index: number) => `${fmt(sizes[index]?.events ?? 0)} events over ${sizes[index]?.days} days`;
  console.log(`\nVerdicts (issue 30), ${described(results.length - 1)} against ${described(0)}:`);
  printAgainst(largest, results[0] as SizeResult);
  const paired = shareOf(largest);
  console.log(
    `  ingest, batches, against an empty store beside it (round by round): ${fmt(paired * 100, 1)}% (geometric mean of ${sharesOf(largest).map((n) => `${fmt(n * 100, 1)}%`).join(', ')}; >= 90%): ${verdict(paired >= 0.9)}`,
  );
  if (sameDays !== undefined) {
    console.log(`\nThe store's growth alone, ${described(results.length - 1)} against ${described(sameDays)}:`);
    printAgainst(largest, results[sameDays] as SizeResult);
  }
  const events = largest.tables.find((t) => t.table === 'events');
  const all = largest.tables.reduce((sum, t) => sum + t.bytes, 0);
  if (events !== undefined && events.rows > 0) {
    console.log(`  bytes per stored event: ${fmt(events.bytes / events.rows)} in events (table + indexes), ${fmt(all / events.rows)} with the other four tables (no verdict; the goal is half of today's)`);
  }
}
