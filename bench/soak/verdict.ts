import type { ListedConversion } from './accounting';
import type { FaultsDone } from './faults';
import { BURSTS } from './faults';
import type { LoadResult } from './load';
import type { Ledger } from './ledger';
import type { Flatness } from './memory';
import { PROCESS_KINDS } from './stack';

export interface Check {
  name: string;
  /** NOT JUDGED: the run cannot tell (memory in a run under 15 minutes); it neither passes nor fails the soak. */
  outcome: 'PASS' | 'FAIL' | 'NOT JUDGED';
  /** What failed, or a short confirmation. */
  detail: string;
}

/** What was found at the end, workspace by workspace merged. */
export interface Findings {
  ledger: Ledger;
  load: LoadResult;
  faults: FaultsDone;
  /** `${workspaceId}/${messageId}` → times stored. */
  stored: Map<string, number>;
  conversions: ListedConversion[];
  /** `${tiktokEvent}/${eventId}` → TikTok's counts. */
  tiktok: Map<string, { accepted: number; counted: number }>;
  /** Undefined when the run was too short to judge memory. */
  memory: Flatness[] | undefined;
}

const sample = (items: readonly string[]) => (items.length <= 5 ? items.join(', ') : `${items.slice(0, 5).join(', ')} … (${items.length})`);
const check = (name: string, problems: string[], fine: string): Check => ({ name, outcome: problems.length === 0 ? 'PASS' : 'FAIL', detail: problems.length === 0 ? fine : problems.join('; ') });

function memoryCheck(judged: readonly Flatness[] | undefined): Check {
  const name = 'memory flat over the window';
  if (judged === undefined) return { name, outcome: 'NOT JUDGED', detail: 'judged in runs of 15 minutes or more, over their last 10; the samples are printed above' };
  const growing = judged.filter((f) => !f.flat).map((f) => `${f.series.name} +${(f.growth * 100).toFixed(1)}%`);
  return check(
    name,
    [...(judged.length === 0 ? ['no process lived through the whole window'] : []), ...(growing.length > 0 ? [`grew more than allowed: ${growing.join(', ')}`] : [])],
    `${judged.map((f) => f.series.name).join(', ')} flat`,
  );
}

/** What every run under load must show: nothing acknowledged lost or stored twice, one conversion each, counted once. */
export function deliveryChecks(findings: Pick<Findings, 'ledger' | 'stored' | 'conversions' | 'tiktok'>): Check[] {
  const { ledger, stored, conversions, tiktok } = findings;

  const lost = [...ledger.acknowledged].filter((id) => !stored.has(`${ledger.sent.get(id)?.workspaceId}/${id}`));
  const twice = [...stored].filter(([, times]) => times > 1).map(([id]) => id);

  const expected = new Map([...ledger.acknowledged].flatMap((id) => {
    const eventId = ledger.sent.get(id)?.eventId;
    return eventId === undefined ? [] : [[eventId, id] as const];
  }));
  const made = new Map<string, number>();
  for (const conversion of conversions) made.set(conversion.eventId, (made.get(conversion.eventId) ?? 0) + 1);
  const missing = [...expected.keys()].filter((eventId) => !made.has(eventId));
  const madeTwice = [...made].filter(([, times]) => times > 1).map(([eventId]) => eventId);

  const pending = conversions.filter((c) => c.status === 'pending').map((c) => c.eventId);

  const countOf = (c: ListedConversion) => tiktok.get(`${c.tiktokEvent}/${c.eventId}`)?.counted ?? 0;
  const countedTwice = [...tiktok].filter(([, count]) => count.counted > 1).map(([key, count]) => `${key} ×${count.counted}`);
  const deliveredUncounted = conversions.filter((c) => c.status === 'delivered' && countOf(c) === 0).map((c) => c.eventId);
  const known = new Set(conversions.filter((c) => c.status === 'delivered').map((c) => `${c.tiktokEvent}/${c.eventId}`));
  const countedUnknown = [...tiktok.keys()].filter((key) => !known.has(key));

  return [
    check(
      'every acknowledged message stored once',
      [...(lost.length > 0 ? [`${lost.length} acknowledged but not stored: ${sample(lost)}`] : []), ...(twice.length > 0 ? [`${twice.length} stored more than once: ${sample(twice)}`] : [])],
      `${ledger.acknowledged.size.toLocaleString('en-US')} acknowledged, each stored once`,
    ),
    check(
      'every acknowledged purchase and cart made one conversion',
      [...(missing.length > 0 ? [`${missing.length} made none: ${sample(missing)}`] : []), ...(madeTwice.length > 0 ? [`${madeTwice.length} made more than one: ${sample(madeTwice)}`] : [])],
      `${expected.size.toLocaleString('en-US')} conversions, one each`,
    ),
    check('every conversion in a final state after the drain', pending.length > 0 ? [`${pending.length} still pending: ${sample(pending)}`] : [], `${conversions.length.toLocaleString('en-US')} delivered, skipped or failed`),
    check(
      'TikTok counted each delivered conversion once, and nothing else',
      [
        ...(countedTwice.length > 0 ? [`counted more than once: ${sample(countedTwice)}`] : []),
        ...(deliveredUncounted.length > 0 ? [`delivered but never counted: ${sample(deliveredUncounted)}`] : []),
        ...(countedUnknown.length > 0 ? [`counted but not delivered by Signalbox: ${sample(countedUnknown)}`] : []),
      ],
      `${known.size.toLocaleString('en-US')} event_ids, each counted once`,
    ),
  ];
}

/** The soak's invariants, each a check with what broke it. */
export function judge(findings: Findings): Check[] {
  const { ledger } = findings;
  const killed = new Set(findings.faults.kills.map((k) => k.kind));
  const burst = new Set(findings.faults.bursts.map((b) => b.family));
  return [
    ...deliveryChecks(findings),
    memoryCheck(findings.memory),
    check(
      'the load and the faults ran as designed',
      [
        ...findings.load.errors.slice(0, 5),
        ...(ledger.undelivered.length > 0 ? [`${ledger.undelivered.length} requests not acknowledged for good: ${sample(ledger.undelivered.map((u) => `${u.source} ${u.why}`))}`] : []),
        ...PROCESS_KINDS.filter((kind) => !killed.has(kind)).map((kind) => `${kind} never killed`),
        ...[...new Set(BURSTS.map((b) => b.family))].filter((family) => !burst.has(family)).map((family) => `no burst of TikTok ${family}`),
      ],
      `${findings.faults.kills.length} kills (each kind), ${findings.faults.bursts.length} TikTok bursts (both kinds), every request acknowledged`,
    ),
  ];
}
