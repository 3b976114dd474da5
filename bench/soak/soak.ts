import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { anyPending, conversions, storedMessages, tiktokCounts, type ListedConversion } from './accounting';
import { startFaults, type Faults, type FaultsDone } from './faults';
import { Ledger } from './ledger';
import { startLoad, type Load, type LoadResult } from './load';
import { judgeMemory, MEMORY_WARM_UP_MS, MEMORY_WINDOW_MS, startMemorySampler, type Flatness, type MemorySampler, type MemorySeries } from './memory';
import type { SoakOptions } from './options';
import { createSenders, type Senders } from './senders';
import { settingsApi, type SettingsApi } from './settings-api';
import { createShop, type SoakShop } from './shops';
import { startSoakStack } from './stack';
import { judge, type Check } from './verdict';

export interface SoakReport {
  options: SoakOptions;
  shops: SoakShop[];
  ledger: Ledger;
  load: LoadResult;
  faults: FaultsDone;
  /** The load's length as it ran, and the drain's after it (until nothing was pending, or the bound). */
  loadMs: number;
  drainMs: number;
  /** `judged` is undefined when the run was too short to judge memory. */
  memory: { series: MemorySeries[]; judged?: Flatness[]; fromMs: number; toMs: number };
  /** `${workspaceId}/${messageId}` → times stored. */
  stored: Map<string, number>;
  conversions: ListedConversion[];
  tiktok: Awaited<ReturnType<typeof tiktokCounts>>;
  /** The machine's 1-minute load average at the start and at the end of the load. */
  loadAverage: [number, number];
  checks: Check[];
  pass: boolean;
}

/** Waits until no shop has a pending conversion, at most `boundMs`; the outbox sweeper wakes lost ones each minute. */
export async function drain(api: SettingsApi, shops: readonly SoakShop[], boundMs: number): Promise<void> {
  const deadline = performance.now() + boundMs;
  while (performance.now() < deadline) {
    const pending = await Promise.all(shops.map((shop) => anyPending(api, shop.workspaceId)));
    if (!pending.includes(true)) return;
    await sleep(2_000);
  }
}

/**
 * The soak: the stack of `code` (compiled server code), two shops set up through the settings API, a steady mixed
 * load for `options.durationMs` while the fault driver kills processes and TikTok answers bursts of faults, then a
 * bounded drain and the accounting. `progress` gets a line a minute.
 */
export async function runSoak(options: SoakOptions, code: string, progress: (line: string) => void = () => undefined): Promise<SoakReport> {
  const stack = await startSoakStack(code);
  let load: Load | undefined;
  let senders: Senders | undefined;
  let faults: Faults | undefined;
  let sampler: MemorySampler | undefined;
  try {
    const api = settingsApi(stack.ingestUrls[1], stack.adminToken);
    const shops = [await createShop(api, stack.fake, 'Soak shop', false), await createShop(api, stack.fake, 'Soak outlet (matches without a click)', true)];
    const ledger = new Ledger();
    senders = createSenders(ledger, stack.ingestUrls, shops);

    const startedAt = performance.now();
    const loadAverageAtStart = os.loadavg()[0] as number;
    sampler = startMemorySampler(() => stack.processes(), options.sampleEveryMs, startedAt);
    faults = startFaults(stack, options, startedAt);
    load = startLoad(senders, ledger, shops, stack.ingestUrls.length, options.journeysPerSecond);
    const ticker = setInterval(() => {
      const minutes = Math.round((performance.now() - startedAt) / 60_000);
      progress(`[soak ${minutes} min] ${ledger.acknowledged.size.toLocaleString('en-US')} of ${ledger.sent.size.toLocaleString('en-US')} messages acknowledged; load average ${os.loadavg()[0]?.toFixed(1)}`);
    }, 60_000);
    await sleep(options.durationMs);
    clearInterval(ticker);

    const loadMs = performance.now() - startedAt;
    const loadAverageAtEnd = os.loadavg()[0] as number;
    const series = sampler.stop();
    const faultsDone = await faults.stop();
    const loadResult = await load.stop();
    progress('[soak] load over; waiting for the clients to deliver what they queued');
    await senders.finish();
    progress('[soak] waiting for every conversion to reach a final state');
    const drainFrom = performance.now();
    await drain(api, shops, options.drainMs);
    const drainMs = performance.now() - drainFrom;

    const stored = new Map<string, number>();
    for (const shop of shops) for (const [id, times] of await storedMessages(api, shop.workspaceId)) stored.set(`${shop.workspaceId}/${id}`, times);
    const listed = (await Promise.all(shops.map((shop) => conversions(api, shop.workspaceId)))).flat();
    const tiktok = await tiktokCounts(stack.fake);
    const fromMs = loadMs - MEMORY_WINDOW_MS;
    const judged = loadMs >= MEMORY_WINDOW_MS + MEMORY_WARM_UP_MS ? judgeMemory(series, fromMs, loadMs, options.sampleEveryMs) : undefined;
    const memory = { series, fromMs, toMs: loadMs, judged };
    const checks = judge({ ledger, load: loadResult, faults: faultsDone, stored, conversions: listed, tiktok: tiktok.counts, memory: memory.judged });
    return {
      options,
      shops,
      ledger,
      load: loadResult,
      faults: faultsDone,
      loadMs,
      drainMs,
      memory,
      stored,
      conversions: listed,
      tiktok,
      loadAverage: [loadAverageAtStart, loadAverageAtEnd],
      checks,
      pass: checks.every((c) => c.outcome !== 'FAIL'),
    };
  } catch (error) {
    load?.abandon();
    senders?.abandon();
    sampler?.stop();
    await faults?.stop().catch(() => undefined);
    throw error;
  } finally {
    await stack.stop();
  }
}
