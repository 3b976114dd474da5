import { createSender } from '../ingest/http-client';
import { closedLoop, openLoop, type LoadResult } from '../ingest/load';
import { benchEvents, chunk } from '../ingest/workload';
import type { Infrastructure } from '../pipeline/infrastructure';
import { measureBurst, prepareWorkspace, type PhaseResult } from '../pipeline/pipeline';
import type { CallTiming, ConsoleCall } from '../console/timing';
import { consoleCalls, timeCalls } from '../console/timing';
import { eventsParts, footprint, type EventsPart, type TableFootprint } from './footprint';
import { quietServer, statementProfile, withCost, type PhaseCost } from './phase-cost';

export interface GrowthSettings {
  /** Events sent in batches before the measured ones, not counted. */
  batchWarmUpEvents: number;
  batchEvents: number;
  /** Measured rounds of `batchEvents`; the median round is reported. */
  batchRounds: number;
  batch: number;
  senders: number;
  singleRate: number;
  singleSeconds: number;
  conversions: number;
  consoleRounds: number;
}

export interface SizeResult {
  size: number;
  /** The median round of batches by rate. */
  batches: LoadResult;
  /** Every round's rate, events per second, in the order run. */
  batchRoundRates: number[];
  singles: LoadResult;
  batchCost: PhaseCost;
  singleCost: PhaseCost;
  pipeline: PhaseResult;
  tables: TableFootprint[];
  eventsParts: EventsPart[];
  console: CallTiming[];
}

/** Ingest (batches, then single events), the pipeline and the console, on the store as it is; then its footprint. */
export async function measureSize(infra: Infrastructure, key: string, consoleApi: { call: ConsoleCall; workspaceId: string }, size: number, settings: GrowthSettings): Promise<SizeResult> {
  const batchesOf = async (events: number) => {
    const sender = createSender(infra.ingestUrl, key, settings.senders);
    const bodies = chunk(benchEvents(events), settings.batch).map((batch) => ({ body: Buffer.from(JSON.stringify({ batch })), events: batch.length }));
    try {
      return await closedLoop(sender, '/v1/batch', bodies, settings.senders);
    } finally {
      sender.close();
    }
  };
  await batchesOf(settings.batchWarmUpEvents);
  const rounds: Awaited<ReturnType<typeof withCost>>[] = [];
  for (let round = 1; round <= settings.batchRounds; round += 1) {
    await quietServer(infra.db);
    const relationsBefore = statementProfile.enabled ? await statementProfile.reset(infra.db) : undefined;
    rounds.push(await withCost(infra, () => batchesOf(settings.batchEvents)));
    if (relationsBefore !== undefined) await statementProfile.print(infra.db, `batches at ${size.toLocaleString('en-US')} stored events, round ${round}`, relationsBefore);
  }
  const rateOf = ({ load }: (typeof rounds)[number]) => load.events / load.seconds;
  const batches = [...rounds].sort((a, b) => rateOf(a) - rateOf(b))[Math.floor(rounds.length / 2)] as (typeof rounds)[number];
  const singlesFor = async (seconds: number) => {
    const sender = createSender(infra.ingestUrl, key, 256);
    const requests = benchEvents(settings.singleRate * seconds).map((event) => ({ sender, body: Buffer.from(JSON.stringify(event)) }));
    try {
      return await openLoop('/v1/track', requests, settings.singleRate);
    } finally {
      sender.close();
    }
  };
  await quietServer(infra.db);
  await singlesFor(2);
  const singles = await withCost(infra, () => singlesFor(settings.singleSeconds));
  const pipeline = await measureBurst(infra, await prepareWorkspace(infra, `growth${size}`, settings.conversions), settings.conversions);
  const calls = await consoleCalls(consoleApi.call, consoleApi.workspaceId);
  return {
    size,
    batches: batches.load,
    batchRoundRates: rounds.map(rateOf),
    singles: singles.load,
    batchCost: batches.cost,
    singleCost: singles.cost,
    pipeline,
    console: await timeCalls(consoleApi.call, calls, settings.consoleRounds),
    tables: await footprint(infra.db),
    eventsParts: await eventsParts(infra.db),
  };
}
