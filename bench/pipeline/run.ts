import { Client, Connection } from '@temporalio/client';
import { countActions, type ActionCount } from './actions';
import { measureCeiling } from './ceiling';
import { startInfrastructure } from './infrastructure';
import { measureBurst, measureLone, measureSteady, prepareWorkspace, type PhaseResult } from './pipeline';

const CEILING_WORKFLOWS = Number(process.env.BENCH_CEILING_WORKFLOWS ?? 1000);
const CONVERSIONS = Number(process.env.BENCH_CONVERSIONS ?? 3000);
const STEADY_SECONDS = Number(process.env.BENCH_STEADY_SECONDS ?? 20);
/** `rate` or `rate`x`purchases per request`: single-purchase requests unless a batch size is given. */
const STEADY = (process.env.BENCH_STEADY ?? '50,200,200x10').split(',').map((spec) => {
  const [rate, perRequest] = spec.split('x').map(Number);
  return { rate: rate as number, perRequest: perRequest ?? 1, name: perRequest === undefined ? `steady ${rate}/s` : `steady ${rate}/s, ${perRequest} per request` };
});
const LONE = Number(process.env.BENCH_LONE ?? 5);

const TARGETS = { p99Ms: new Map([[50, 2_000], [200, 5_000]]), actionsPerConversion: 0.1, requestsPerConversion: 0.05, loneMs: 1_000 };
/** Issue 49: the max rate, and the rate the pipeline had before events were partitioned by day (its floor). */
const ISSUE_49 = { perSecond: 2_000, floorPerSecond: 1_142, steady50P99Ms: 250 };

const fmt = (n: number, digits = 1) => n.toFixed(digits);
const verdict = (ok: boolean) => (ok ? 'PASS' : 'FAIL');

function phaseLine(name: string, r: PhaseResult, actions: ActionCount): string {
  return [
    name.padEnd(34),
    String(r.conversions).padStart(6),
    fmt(r.perSecond).padStart(9),
    fmt(r.latency.p50, 0).padStart(7),
    fmt(r.latency.p99, 0).padStart(7),
    String(actions.total).padStart(8),
    fmt(actions.total / r.conversions, 3).padStart(9),
    String(r.tiktokRequests).padStart(9),
    fmt(r.tiktokRequests / r.conversions, 3).padStart(9),
  ].join(' ');
}

/**
 * Conversions per second and ingest-to-TikTok latency through the whole pipeline (HTTP ingest → group workflow →
 * fake TikTok), beside the same dev server's ceiling for the per-conversion design (a no-op workflow per conversion
 * with its six local activities), with the Temporal actions and TikTok requests each conversion cost, counted from
 * the histories and the fake's log of each phase (one workspace per phase).
 */
async function main(): Promise<void> {
  console.log(
    `Signalbox pipeline benchmark: ceiling ${CEILING_WORKFLOWS} no-op workflows; max rate ${CONVERSIONS} conversions; ${STEADY.map((s) => s.name).join('; ')} for ${STEADY_SECONDS} s; ${LONE} lone conversions`,
  );
  const infra = await startInfrastructure();
  const connection = await Connection.connect({ address: infra.temporalAddress });
  const client = new Client({ connection });
  try {
    const burstWs = await prepareWorkspace(infra, 'burst', CONVERSIONS);
    const steadyWs = await Promise.all(STEADY.map(({ rate, perRequest }) => prepareWorkspace(infra, `steady${rate}x${perRequest}`, rate * STEADY_SECONDS)));
    const loneWs = await prepareWorkspace(infra, 'lone', LONE);

    const done = (name: string, r: { latency?: { p50: number; p99: number }; p50?: number; p99?: number; perSecond?: number }) => {
      const latency = r.latency ?? (r as { p50: number; p99: number });
      console.log(`done: ${name}${r.perSecond === undefined ? '' : `, ${fmt(r.perSecond)}/s`}, p50 ${fmt(latency.p50, 0)} ms, p99 ${fmt(latency.p99, 0)} ms`);
    };
    const ceiling = await measureCeiling(infra, CEILING_WORKFLOWS, 'ceiling', 'noopConversionWorkflow');
    done('per-conversion ceiling', ceiling);
    const burst = await measureBurst(infra, burstWs, CONVERSIONS);
    done('max rate', burst);
    const steady: PhaseResult[] = [];
    for (const [i, { rate, perRequest, name }] of STEADY.entries()) {
      steady.push(await measureSteady(infra, steadyWs[i]!, rate, STEADY_SECONDS, perRequest));
      done(name, steady[i]!);
    }
    const lone = await measureLone(infra, loneWs, LONE, 1_500);
    done('lone conversions', lone);

    const burstActions = await countActions(client, burstWs.workspaceId);
    const steadyActions = await Promise.all(steadyWs.map((ws) => countActions(client, ws.workspaceId)));

    console.log(
      `\n${'run'.padEnd(34)} ${'done'.padStart(6)} ${'per sec'.padStart(9)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'actions'.padStart(8)} ${'per conv'.padStart(9)} ${'requests'.padStart(9)} ${'per conv'.padStart(9)}`,
    );
    console.log(`${'per-conversion ceiling: no-op wf'.padEnd(34)} ${String(ceiling.completed).padStart(6)} ${fmt(ceiling.perSecond).padStart(9)} ${fmt(ceiling.latency.p50, 0).padStart(7)} ${fmt(ceiling.latency.p99, 0).padStart(7)}`);
    console.log(phaseLine('Signalbox groups: max rate', burst, burstActions));
    STEADY.forEach(({ name }, i) => console.log(phaseLine(`groups: ${name}`, steady[i]!, steadyActions[i]!)));
    console.log(`lone conversions: ${LONE}, p50 ${fmt(lone.p50, 0)} ms, max ${fmt(lone.max, 0)} ms`);

    console.log('\nTemporal actions by kind:');
    console.log(`  max rate: ${JSON.stringify(burstActions.byKind)} in ${burstActions.runs} run(s)`);
    STEADY.forEach(({ name }, i) => console.log(`  ${name}: ${JSON.stringify(steadyActions[i]!.byKind)} in ${steadyActions[i]!.runs} run(s)`));
    console.log('\nCPU seconds by part during each run:');
    console.log(`  per-conversion ceiling: ${ceiling.cpu}`);
    console.log(`  max rate: ${burst.cpu}`);
    STEADY.forEach(({ name }, i) => console.log(`  ${name}: ${steady[i]!.cpu}`));

    const multiple = burst.perSecond / ceiling.perSecond;
    console.log('\nTargets (issue 11):');
    console.log(`  throughput: ${fmt(burst.perSecond)}/s = ${fmt(multiple, 2)} × the per-conversion ceiling (${fmt(ceiling.perSecond)}/s); >= 300/s: ${verdict(burst.perSecond >= 300)}`);
    STEADY.forEach(({ rate, name }, i) => {
      const limit = TARGETS.p99Ms.get(rate);
      if (limit !== undefined) console.log(`  ${name} p99: ${fmt(steady[i]!.latency.p99, 0)} ms (< ${limit} ms): ${verdict(steady[i]!.latency.p99 < limit)}`);
      if (rate !== 200) return;
      const actions = steadyActions[i]!.total / steady[i]!.conversions;
      const requests = steady[i]!.tiktokRequests / steady[i]!.conversions;
      console.log(`  ${name}: Temporal actions per conversion ${fmt(actions, 3)} (<= ${TARGETS.actionsPerConversion}): ${verdict(actions <= TARGETS.actionsPerConversion)}`);
      console.log(`  ${name}: TikTok requests per conversion ${fmt(requests, 3)} (<= ${TARGETS.requestsPerConversion}): ${verdict(requests <= TARGETS.requestsPerConversion)}`);
    });
    console.log(`  lone conversion: max ${fmt(lone.max, 0)} ms (< ${TARGETS.loneMs} ms): ${verdict(lone.max < TARGETS.loneMs)}`);
    console.log('Targets (issue 49):');
    console.log(`  max rate: ${fmt(burst.perSecond)}/s (>= ${ISSUE_49.perSecond}/s): ${verdict(burst.perSecond >= ISSUE_49.perSecond)}; never below the rate before partitions (${ISSUE_49.floorPerSecond}/s): ${verdict(burst.perSecond >= ISSUE_49.floorPerSecond)}`);
    STEADY.forEach(({ rate, perRequest, name }, i) => {
      if (rate === 50 && perRequest === 1) console.log(`  ${name} p99: ${fmt(steady[i]!.latency.p99, 0)} ms (<= ${ISSUE_49.steady50P99Ms} ms): ${verdict(steady[i]!.latency.p99 <= ISSUE_49.steady50P99Ms)}`);
    });
  } finally {
    await connection.close();
    await infra.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
