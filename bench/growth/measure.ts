import { createSender } from '../ingest/http-client';
import { closedLoop, openLoop, type LoadResult } from '../ingest/load';
import { benchEvents, chunk } from '../ingest/workload';
import type { CpuSnapshot } from '../pipeline/cpu';
import type { Infrastructure } from '../pipeline/infrastructure';
import { measureBurst, prepareWorkspace, type PhaseResult } from '../pipeline/pipeline';
import type { CallTiming, ConsoleCall } from '../console/timing';
import { consoleCalls, timeCalls } from '../console/timing';
import { footprint, type TableFootprint } from './footprint';

export interface GrowthSettings {
  batchEvents: number;
  batch: number;
  senders: number;
  singleRate: number;
  singleSeconds: number;
  conversions: number;
  consoleRounds: number;
}

export interface SizeResult {
  size: number;
  batches: LoadResult;
  singles: LoadResult;
  /** Ingest process CPU microseconds per event. */
  batchCpuUs: number;
  singleCpuUs: number;
  pipeline: PhaseResult;
  tables: TableFootprint[];
  console: CallTiming[];
}

/** CPU seconds the processes of `part` used between two snapshots. */
function partSeconds(before: CpuSnapshot, after: CpuSnapshot, part: string): number {
  return [...after].filter(([, p]) => p.part === part).reduce((sum, [pid, p]) => sum + p.cpuSeconds - (before.get(pid)?.cpuSeconds ?? 0), 0);
}

async function withIngestCpu(infra: Infrastructure, run: () => Promise<LoadResult>): Promise<{ load: LoadResult; cpuUs: number }> {
  const before = infra.cpu();
  const load = await run();
  return { load, cpuUs: (partSeconds(before, infra.cpu(), 'ingest') / load.events) * 1e6 };
}

/** Ingest (batches, then single events), the pipeline and the console, on the store as it is; then its footprint. */
export async function measureSize(infra: Infrastructure, key: string, consoleApi: { call: ConsoleCall; workspaceId: string }, size: number, settings: GrowthSettings): Promise<SizeResult> {
  const batches = await withIngestCpu(infra, async () => {
    const sender = createSender(infra.ingestUrl, key, settings.senders);
    const bodies = chunk(benchEvents(settings.batchEvents), settings.batch).map((batch) => ({ body: Buffer.from(JSON.stringify({ batch })), events: batch.length }));
    try {
      return await closedLoop(sender, '/v1/batch', bodies, settings.senders);
    } finally {
      sender.close();
    }
  });
  const singlesFor = async (seconds: number) => {
    const sender = createSender(infra.ingestUrl, key, 256);
    const requests = benchEvents(settings.singleRate * seconds).map((event) => ({ sender, body: Buffer.from(JSON.stringify(event)) }));
    try {
      return await openLoop('/v1/track', requests, settings.singleRate);
    } finally {
      sender.close();
    }
  };
  await singlesFor(2);
  const singles = await withIngestCpu(infra, () => singlesFor(settings.singleSeconds));
  const pipeline = await measureBurst(infra, await prepareWorkspace(infra, `growth${size}`, settings.conversions), settings.conversions);
  const calls = await consoleCalls(consoleApi.call, consoleApi.workspaceId);
  return {
    size,
    batches: batches.load,
    singles: singles.load,
    batchCpuUs: batches.cpuUs,
    singleCpuUs: singles.cpuUs,
    pipeline,
    console: await timeCalls(consoleApi.call, calls, settings.consoleRounds),
    tables: await footprint(infra.db),
  };
}
