import { EVENT_TRACK_PATH } from '../devstack/tiktok-fake';
import { prepareConversionGroup } from '../activities/group/prepare-group';
import type { ConversionRow } from '../db/types';
import { buildTestApp } from './helpers/test-app';
import { daysAgo, landing, track, ttclid } from './helpers/messages';
import { TestPipeline } from './helpers/pipeline';

let pipeline: TestPipeline;
beforeAll(async () => {
  pipeline = await TestPipeline.start();
});
afterAll(() => pipeline.close());

type Workspace = Awaited<ReturnType<TestPipeline['workspace']>>;

/** `count` clicked visitors each buying once, committed without waking the workflow, so that one group takes them all. */
async function clickedPurchases(ws: Workspace, prefix: string, count: number): Promise<ConversionRow[]> {
  await pipeline.ingest(ws, Array.from({ length: count }, (_, i) => landing(`${prefix}-visitor-${i}`, ttclid(), daysAgo(1))));
  return pipeline.ingest(
    ws,
    Array.from({ length: count }, (_, i) => track('purchase', { anonymousId: `${prefix}-visitor-${i}` }, { order_id: `${prefix}-${i}`, total: 10 + i, currency: 'USD' })),
    { start: false },
  );
}

async function wakeAndSettle(conversions: readonly ConversionRow[]): Promise<ConversionRow[]> {
  await pipeline.startConversions(conversions.map((c) => ({ workspaceId: c.workspace_id, id: c.id })));
  return Promise.all(conversions.map((c) => pipeline.settled(c)));
}

/**
 * PostgreSQL refuses a write that concerns one conversion (as it refuses data it cannot store), with this SQLSTATE,
 * every time, until the returned function drops the refusal. `when` is the trigger's condition on `NEW`.
 */
async function refuseWrites(table: 'conversions' | 'tiktok_requests', when: string, sqlstate: string, message: string): Promise<() => Promise<void>> {
  const name = `refuse_${Math.random().toString(36).slice(2, 10)}`;
  const { db } = pipeline.database;
  await db.raw(`CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION '${message}' USING ERRCODE = '${sqlstate}'; END $$`);
  await db.raw(`CREATE TRIGGER ${name} BEFORE INSERT OR UPDATE ON ${table} FOR EACH ROW WHEN (${when}) EXECUTE FUNCTION ${name}()`);
  return async () => {
    await db.raw(`DROP TRIGGER ${name} ON ${table}`);
    await db.raw(`DROP FUNCTION ${name}()`);
  };
}

async function lastOutcome(conversionId: string) {
  const timeline = await pipeline.repos.conversionHistory.list(conversionId);
  return timeline.filter((entry) => entry.step === 'outcome').at(-1)?.detail;
}

async function acceptedWith(prefix: string) {
  const { events } = await pipeline.fake.receivedEvents();
  return events.filter((e) => e.eventId?.startsWith(`${prefix}-`));
}

describe('one conversion that breaks a group step', () => {
  it('does not stop the conversions after it: a purchase stamped 9999-12-31T23:59:59Z, then clicked purchases', async () => {
    const ws = await pipeline.workspace({ rules: [{ sourceEvent: 'purchase' }] });
    await pipeline.ingest(ws, [0, 1, 2].map((i) => landing(`far-visitor-${i}`, ttclid(), daysAgo(1))));
    const [farFuture] = await pipeline.ingest(ws, [track('purchase', { anonymousId: 'far-visitor-0' }, { order_id: 'far-future', total: 5, currency: 'USD' }, { timestamp: '9999-12-31T23:59:59Z' })]);
    const later = await pipeline.ingest(ws, [1, 2].map((i) => track('purchase', { anonymousId: `far-visitor-${i}` }, { order_id: `far-later-${i}`, total: 10, currency: 'USD' })));

    for (const conversion of later) expect(await pipeline.settled(conversion)).toMatchObject({ status: 'delivered' });
    // Its click was found (the skew allowance stops at the last storable instant) and is far older than the window.
    expect(await pipeline.settled(farFuture!)).toMatchObject({ status: 'skipped', reason: 'click_outside_attribution_window', click_anonymous_id: 'far-visitor-0' });
  });

  it('in preparation: ends it failed with internal_error, the step and PostgreSQL’s words; the rest of its group is delivered in one request', async () => {
    const ws = await pipeline.workspace({ rules: [{ sourceEvent: 'purchase' }] });
    const conversions = await clickedPurchases(ws, 'prep', 9);
    const allow = await refuseWrites('conversions', "NEW.event_id = 'prep-6' AND NEW.request_payload IS NOT NULL", '22023', 'refused by a test trigger');
    try {
      const settled = await wakeAndSettle(conversions);
      const culprit = settled.find((c) => c.event_id === 'prep-6');
      expect(culprit).toMatchObject({ status: 'failed', reason: 'internal_error', claim_id: null, request_payload: null, attempts: 0 });
      expect(await lastOutcome(culprit!.id)).toEqual({ status: 'failed', reason: 'internal_error', step: 'prepare', message: 'PostgreSQL 22023: refused by a test trigger' });
      expect(settled.filter((c) => c.status === 'delivered').map((c) => c.event_id).sort()).toEqual(['prep-0', 'prep-1', 'prep-2', 'prep-3', 'prep-4', 'prep-5', 'prep-7', 'prep-8']);
      expect(new Set(settled.filter((c) => c.status === 'delivered').map((c) => c.delivery_request_id)).size).toBe(1);
    } finally {
      await allow();
    }
  });

  it('in delivery: the culprit is never sent, every other event reaches TikTok once', async () => {
    const ws = await pipeline.workspace({ rules: [{ sourceEvent: 'purchase' }] });
    const conversions = await clickedPurchases(ws, 'send', 7);
    const culpritId = conversions.find((c) => c.event_id === 'send-2')!.id;
    const allow = await refuseWrites('tiktok_requests', `'${culpritId}' = ANY (NEW.conversion_ids)`, '22P05', 'unsupported Unicode escape sequence');
    try {
      const settled = await wakeAndSettle(conversions);
      expect(settled.find((c) => c.id === culpritId)).toMatchObject({ status: 'failed', reason: 'internal_error', delivery_request_id: null });
      expect(await lastOutcome(culpritId)).toEqual({ status: 'failed', reason: 'internal_error', step: 'deliver', message: 'PostgreSQL 22P05: unsupported Unicode escape sequence' });
      expect(settled.filter((c) => c.status === 'delivered')).toHaveLength(6);
      const accepted = await acceptedWith('send');
      expect(accepted.map((e) => e.eventId).sort()).toEqual(['send-0', 'send-1', 'send-3', 'send-4', 'send-5', 'send-6']);
      expect(accepted.every((e) => !e.deduplicated)).toBe(true);
      const { requests } = await pipeline.fake.receivedEvents();
      expect(requests.filter((r) => r.path === EVENT_TRACK_PATH && r.rawBody.includes('"send-2"'))).toEqual([]);
    } finally {
      await allow();
    }
  });

  it('blames no conversion while PostgreSQL cannot serve: a serialization failure is thrown to be retried, even when isolating', async () => {
    const ws = await pipeline.workspace({ rules: [{ sourceEvent: 'purchase' }] });
    const conversions = await clickedPurchases(ws, 'busy', 4);
    const allow = await refuseWrites('conversions', "NEW.event_id = 'busy-1' AND NEW.request_payload IS NOT NULL", '40001', 'could not serialize access');
    const group = { workspaceId: ws.id, claimId: 'busy-run:0', runId: 'busy-run', fill: false };
    try {
      await expect(prepareConversionGroup(pipeline.deps, group, { isolateCulprits: true })).rejects.toMatchObject({ code: '40001' });
      for (const conversion of conversions) expect(await pipeline.repos.conversions.find(conversion.id)).toMatchObject({ status: 'pending', reason: null });
    } finally {
      await allow();
    }
    expect(await prepareConversionGroup(pipeline.deps, group, { isolateCulprits: true })).toMatchObject({ claimed: 4, ready: 4, failed: 0 });
  });

  it('is counted on /metrics, read from the database at each scrape', async () => {
    const ws = await pipeline.workspace({ rules: [{ sourceEvent: 'purchase' }] });
    await clickedPurchases(ws, 'counted', 3);
    const allow = await refuseWrites('conversions', "NEW.event_id = 'counted-0' AND NEW.request_payload IS NOT NULL", '22023', 'refused by a test trigger');
    try {
      const group = { workspaceId: ws.id, claimId: 'counted-run:0', runId: 'counted-run', fill: false };
      expect(await prepareConversionGroup(pipeline.deps, group, { isolateCulprits: true })).toMatchObject({ claimed: 3, ready: 2, failed: 1 });
    } finally {
      await allow();
    }
    const [failed] = await pipeline.database.db('conversions').where({ status: 'failed', reason: 'internal_error' }).count<{ count: string }[]>('* as count');
    expect(Number(failed?.count)).toBeGreaterThan(0);
    const { app } = buildTestApp(pipeline.database.db);
    try {
      expect((await app.inject({ method: 'GET', url: '/metrics' })).body).toContain(`\nsignalbox_conversions_internal_error ${failed?.count}\n`);
    } finally {
      await app.close();
    }
  });
});
