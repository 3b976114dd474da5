import type { ListedConversion } from './accounting';
import { Ledger } from './ledger';
import { judgeMemory, type MemorySeries } from './memory';
import { judge, type Findings } from './verdict';

const conversion = (eventId: string, status: ListedConversion['status'] = 'delivered'): ListedConversion => ({ id: `c-${eventId}`, status, reason: null, tiktokEvent: 'CompletePayment', eventId });

/** A run where everything went right: two messages, one of them a purchase delivered and counted once. */
function cleanRun(): Findings {
  const ledger = new Ledger();
  ledger.send('m-page', { source: 'web', workspaceId: 'ws' });
  ledger.send('m-purchase', { source: 'web', workspaceId: 'ws', eventId: 'order-1' });
  ledger.answered('web', 200, ['m-page']);
  ledger.answered('web', 503, ['m-purchase']);
  ledger.answered('web', 200, ['m-purchase']);
  const flat: MemorySeries = { name: 'ingest-2', pid: 2, measure: 'RSS', samples: [0, 10, 20, 30, 40].map((atMs) => ({ atMs, bytes: 100 })) };
  return {
    ledger,
    load: { journeys: 1, errors: [] },
    faults: {
      kills: (['ingest', 'worker', 'temporal', 'postgres'] as const).map((kind) => ({ kind, process: kind, atMs: 1, downMs: 1, backAfterMs: 1 })),
      bursts: [
        { name: '40100', family: 'throttling', atMs: 1, forMs: 1 },
        { name: '502', family: '5xx', atMs: 2, forMs: 1 },
      ],
    },
    stored: new Map([
      ['ws/m-page', 1],
      ['ws/m-purchase', 1],
    ]),
    conversions: [conversion('order-1')],
    tiktok: new Map([['CompletePayment/order-1', { accepted: 2, counted: 1 }]]),
    memory: judgeMemory([flat], 0, 40, 10),
  };
}

const failed = (findings: Findings) => judge(findings).filter((check) => check.outcome !== 'PASS').map((check) => `${check.outcome} ${check.name}: ${check.detail}`);

describe('the soak verdict', () => {
  it('passes a run that lost, repeated and left nothing, even where TikTok deduplicated a resend', () => {
    expect(failed(cleanRun())).toEqual([]);
  });

  it('fails an acknowledged message that is not stored in its workspace, and a message stored twice', () => {
    const run = cleanRun();
    run.stored.delete('ws/m-page');
    run.stored.set('other-ws/m-page', 1);
    run.stored.set('ws/m-purchase', 2);
    expect(failed(run)).toEqual(['FAIL every acknowledged message stored once: 1 acknowledged but not stored: m-page; 1 stored more than once: ws/m-purchase']);
  });

  it('fails an acknowledged purchase without its conversion, and a conversion made twice', () => {
    const missing = cleanRun();
    missing.conversions = [];
    expect(failed(missing)).toEqual([
      'FAIL every acknowledged purchase and cart made one conversion: 1 made none: order-1',
      'FAIL TikTok counted each delivered conversion once, and nothing else: counted but not delivered by Signalbox: CompletePayment/order-1',
    ]);
    const twice = cleanRun();
    twice.conversions = [conversion('order-1'), conversion('order-1', 'skipped')];
    expect(failed(twice)).toEqual(['FAIL every acknowledged purchase and cart made one conversion: 1 made more than one: order-1']);
  });

  it('fails a conversion still pending after the drain', () => {
    const run = cleanRun();
    run.conversions = [conversion('order-1', 'pending')];
    run.tiktok = new Map();
    expect(failed(run)).toEqual(['FAIL every conversion in a final state after the drain: 1 still pending: order-1']);
  });

  it('fails a conversion TikTok counted twice, one delivered that TikTok never counted, and an event TikTok counted that Signalbox never delivered', () => {
    const twice = cleanRun();
    twice.tiktok = new Map([['CompletePayment/order-1', { accepted: 2, counted: 2 }]]);
    expect(failed(twice)).toEqual(['FAIL TikTok counted each delivered conversion once, and nothing else: counted more than once: CompletePayment/order-1 ×2']);
    const never = cleanRun();
    never.tiktok = new Map([['CompletePayment/order-2', { accepted: 1, counted: 1 }]]);
    expect(failed(never)).toEqual([
      'FAIL TikTok counted each delivered conversion once, and nothing else: delivered but never counted: order-1; counted but not delivered by Signalbox: CompletePayment/order-2',
    ]);
  });

  it('fails growing memory, and a run where no process lived through the window', () => {
    const growing: MemorySeries = { name: 'worker-2', pid: 3, measure: 'RSS', samples: [100, 100, 105, 112, 112].map((bytes, i) => ({ atMs: i * 10, bytes })) };
    const run = cleanRun();
    run.memory = judgeMemory([growing], 0, 40, 10);
    expect(failed(run)).toEqual(['FAIL memory flat over the window: grew more than allowed: worker-2 +12.0%']);
    run.memory = [];
    expect(failed(run)).toEqual(['FAIL memory flat over the window: no process lived through the whole window']);
  });

  it('leaves memory not judged in a run too short to judge it, which neither passes nor fails the soak', () => {
    const run = cleanRun();
    run.memory = undefined;
    expect(failed(run)).toEqual(['NOT JUDGED memory flat over the window: judged in runs of 15 minutes or more, over their last 10; the samples are printed above']);
  });

  it('fails a run whose faults did not all happen, or whose clients gave up or were refused', () => {
    const run = cleanRun();
    run.faults.kills = run.faults.kills.filter((kill) => kill.kind !== 'postgres');
    run.faults.bursts = run.faults.bursts.filter((burst) => burst.family !== '5xx');
    run.ledger.undelivered.push({ source: 'sdk', why: 'retries_exhausted: 3 events' });
    expect(failed(run)).toEqual([
      'FAIL the load and the faults ran as designed: 1 requests not acknowledged for good: sdk retries_exhausted: 3 events; postgres never killed; no burst of TikTok 5xx',
    ]);
  });
});

describe('the memory test', () => {
  const series = (name: string, samples: [number, number][]): MemorySeries => ({ name, pid: 1, measure: 'RSS', samples: samples.map(([atMs, bytes]) => ({ atMs, bytes })) });

  it('judges only a process sampled from the start of the window to its end, by the medians of its first and last quarter', () => {
    const judged = judgeMemory(
      [
        series('through', [[0, 100], [10, 300], [20, 120], [30, 90], [40, 110], [50, 108], [60, 104], [70, 95], [80, 109]]),
        series('started late', [[30, 100], [80, 100]]),
        series('killed early', [[0, 100], [50, 100]]),
      ],
      0,
      80,
      10,
    );
    // First quarter (0–20): 100, 300, 120 → 120; last quarter (60–80): 104, 95, 109 → 104.
    expect(judged.map((f) => [f.series.name, f.firstQuarterBytes, f.lastQuarterBytes, f.flat])).toEqual([['through', 120, 104, true]]);
  });

  it('allows 10% of growth and no more', () => {
    const at = (last: number) => judgeMemory([series('p', [[0, 1000], [10, 1000], [20, last], [30, last], [40, last]])], 0, 40, 10)[0]?.flat;
    expect([at(1100), at(1101)]).toEqual([true, false]);
  });
});
