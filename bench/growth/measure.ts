import { createSender } from '../ingest/http-client';
import { closedLoop, openLoop, type LoadResult } from '../ingest/load';
import { benchEvents, chunk } from '../ingest/workload';
import type { Infrastructure } from '../pipeline/infrastructure';
import { measureBurst, prepareWorkspace, type PhaseResult } from '../pipeline/pipeline';
import type { CallTiming, ConsoleCall } from '../console/timing';
import { consoleCalls, timeCalls } from '../console/timing';
import type { IngestTarget } from './empty-store';
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
  /** The same rounds on an empty store beside this one, round by round next to this store's (empty-store.ts). */
  emptyBatchRoundRates: number[];
  /** The cost of the empty store's median round. */
  emptyBatchCost: PhaseCost;
  singles: LoadResult;
  batchCost: PhaseCost;
  singleCost: PhaseCost;
  pipeline: PhaseResult;
  tables: TableFootprint[];
  eventsParts: EventsPart[];
  console: CallTiming[];
}

type Round = Awaited<ReturnType<typeof withCost>>;
const rateOf = ({ load }: Round) => load.events / load.seconds;
const medianRound = (rounds: readonly Round[]) => [...rounds].sort((a, b) => rateOf(a) - rateOf(b))[Math.floor(rounds.length / 2)] as Round;

/**
 * Ingest (batches, then single events), the pipeline and the console, on the store as it is; then its footprint. Each
 * round of batches is paired with one on `empty`, the two in turns (each pair's first alternates).
 */
export async function measureSize(infra: Infrastructure, key: string, empty: IngestTarget, consoleApi: { call: ConsoleCall; workspaceId: string }, size: number, settings: GrowthSettings): Promise<SizeResult> {
  const grown: IngestTarget = { db: infra.db, ingestUrl: infra.ingestUrl, key, cpu: infra.cpu };
  const batchesOf = async (target: IngestTarget, events: number) => {
    const sender = createSender(target.ingestUrl, target.key, settings.senders);
    const bodies = chunk(benchEvents(events), settings.batch).map((batch) => ({ body: Buffer.from(JSON.stringify({ batch })), events: batch.length }));
    try {
      return await closedLoop(sender, '/v1/batch', bodies, settings.senders);
    } finally {
      sender.close();
    }
  };
  await batchesOf(grown, settings.batchWarmUpEvents);
  // A whole round: the empty store's process and tables are new (with 10,000 its first rounds were a quarter slower).
  await batchesOf(empty, settings.batchEvents);
  const rounds: Round[] = [];
  const emptyRounds: Round[] = [];
  for (let round = 1; round <= settings.batchRounds; round += 1) {
    // A short burst on each round's store first: while the pair's other round ran, its pooled connections went idle and closed.
    const measureGrown = async () => {
      await batchesOf(grown, settings.batchWarmUpEvents);
      await quietServer(infra.db);
      const relationsBefore = statementProfile.enabled ? await statementProfile.reset(infra.db) : undefined;
      rounds.push(await withCost(grown, () => batchesOf(grown, settings.batchEvents)));
      if (relationsBefore !== undefined) await statementProfile.print(infra.db, `batches at ${size.toLocaleString('en-US')} stored events, round ${round}`, relationsBefore);
    };
    const measureEmpty = async () => {
      await batchesOf(empty, settings.batchWarmUpEvents);
      await quietServer(infra.db);
      emptyRounds.push(await withCost(empty, () => batchesOf(empty, settings.batchEvents)));
    };
    for (const measure of round % 2 === 1 ? [measureEmpty, measureGrown] : [measureGrown, measureEmpty]) await measure();
  }
  const batches = medianRound(rounds);
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
    emptyBatchRoundRates: emptyRounds.map(rateOf),
    emptyBatchCost: medianRound(emptyRounds).cost,
    singles: singles.load,
    batchCost: batches.cost,
    singleCost: singles.cost,
    pipeline,
    console: await timeCalls(consoleApi.call, calls, settings.consoleRounds),
    tables: await footprint(infra.db),
    eventsParts: await eventsParts(infra.db),
  };
}
