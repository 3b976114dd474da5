import { measureCeiling, type ThroughputResult } from './ceiling';
import { startInfrastructure } from './infrastructure';
import { measureBurst, measureSteady, prepareWorkspace, seedClicks } from './pipeline';

const CONVERSIONS = Number(process.env.BENCH_CONVERSIONS ?? 2000);
const STEADY_RATE = Number(process.env.BENCH_STEADY_RATE ?? 50);
const STEADY_SECONDS = Number(process.env.BENCH_STEADY_SECONDS ?? 30);

const fmt = (n: number, digits = 1) => n.toFixed(digits);
const row = (name: string, r: ThroughputResult) =>
  `${name.padEnd(44)} ${String(r.completed).padStart(6)} ${fmt(r.perSecond).padStart(10)} ${fmt(r.latency.p50, 0).padStart(8)} ${fmt(r.latency.p99, 0).padStart(8)}`;

/**
 * Conversions per second and ingest-to-TikTok latency through the whole pipeline, next to the same dev server's
 * ceiling for a no-op workflow of the same shape (six local activity calls), measured before and after the pipeline
 * run; a no-op workflow with six regular activities is printed for reference.
 */
async function main(): Promise<void> {
  console.log(`Signalbox pipeline benchmark: ${CONVERSIONS} conversions per throughput run; steady ${STEADY_RATE}/s for ${STEADY_SECONDS} s`);
  const infra = await startInfrastructure();
  try {
    const { key } = await prepareWorkspace(infra);
    await seedClicks(infra, key, 'burst', CONVERSIONS);
    await seedClicks(infra, key, 'steady', STEADY_RATE * STEADY_SECONDS);

    const ceilingBefore = await measureCeiling(infra, CONVERSIONS, 'before', 'noopConversionWorkflow');
    const burst = await measureBurst(infra, key, 'burst', CONVERSIONS);
    const ceilingAfter = await measureCeiling(infra, CONVERSIONS, 'after', 'noopConversionWorkflow');
    const regular = await measureCeiling(infra, CONVERSIONS, 'regular', 'noopRegularActivitiesWorkflow');
    const steady = await measureSteady(infra, key, 'steady', STEADY_RATE, STEADY_SECONDS);

    const ceiling = Math.max(ceilingBefore.perSecond, ceilingAfter.perSecond);
    const share = burst.perSecond / ceiling;
    console.log(`\n${'run'.padEnd(44)} ${'done'.padStart(6)} ${'per sec'.padStart(10)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)}`);
    console.log(row('ceiling: no-op, 6 local activities (before)', ceilingBefore));
    console.log(row('ceiling: no-op, 6 local activities (after)', ceilingAfter));
    console.log(row('for reference: no-op, 6 regular activities', regular));
    console.log(row('Signalbox: HTTP ingest -> TikTok, max rate', burst));
    console.log(`${`Signalbox: steady ${STEADY_RATE}/s, ingest -> TikTok`.padEnd(44)} ${String(steady.count).padStart(6)} ${''.padStart(10)} ${fmt(steady.p50, 0).padStart(8)} ${fmt(steady.p99, 0).padStart(8)}`);
    console.log('\nCPU seconds by part during each run:');
    for (const [name, run] of [['ceiling (before)', ceilingBefore], ['ceiling (after)', ceilingAfter], ['regular activities', regular], ['Signalbox, max rate', burst], ['Signalbox, steady', steady]] as const) {
      console.log(`  ${name}: ${run.cpu}`);
    }
    console.log(`\nthroughput: ${fmt(share * 100)}% of the better ceiling (target >= 80%): ${share >= 0.8 ? 'PASS' : 'FAIL'}`);
    console.log(`steady p99: ${fmt(steady.p99, 0)} ms (target < 2000 ms): ${steady.p99 < 2000 ? 'PASS' : 'FAIL'}`);
  } finally {
    await infra.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
