import type { Knex } from 'knex';
import { createRepositories } from '../../db/repositories';
import { addDays, createEventDayRepository, dayOf } from '../../db/repositories/event-days';
import { createSecretBox } from '../../db/secret-box';
import { CONSOLE_SECRET_KEY } from '../console/timing';
import { copyEvents } from '../ingest/copy';
import { benchEvents } from '../ingest/workload';

const DAY_MS = 86_400_000;
/** Events per COPY: one workspace's slice of one moment of the 30 days. */
const CHUNK = 100_000;

/**
 * What the store holds beside its events, per 1,000 events: 100 visitors (a quarter of them clicked: 25 clicks),
 * 10 purchases with their conversions (70% delivered with the payload sent, 20% skipped, 5% failed, 5% pending), and
 * 10 signed-in people with 60 identity links (user ↔ two devices and a hashed email, both directions).
 */
export const PROPORTIONS = 'per 1,000 events: 100 visitors, 25 clicks, 10 conversions (70% delivered, 20% skipped, 5% failed, 5% pending), 60 identity links (10 people × 2 devices + email, both ways)';

export interface StoreWorkspaces {
  /** Half of all events. */
  hot: string;
  /** The other half, in turn. */
  others: readonly string[];
}

const HOT_NAME = 'Growth hot shop';

/**
 * The store's six workspaces; the hot one connected to TikTok, as the console's ads pages answer only a connected
 * workspace, its token sealed with the console API's key.
 */
export async function createStoreWorkspaces(db: Knex): Promise<StoreWorkspaces> {
  const repos = createRepositories(db, createSecretBox(CONSOLE_SECRET_KEY));
  const hot = await repos.workspaces.create(HOT_NAME);
  const others = await Promise.all([1, 2, 3, 4, 5].map(async (i) => (await repos.workspaces.create(`Growth shop ${i}`)).id));
  await repos.tiktokConnections.put(hot.id, { accessToken: 'growth-token', advertiserId: '7391846250173946281', pixelCode: 'CGROWTHPIXEL00000001' });
  return { hot: hot.id, others };
}

/** The hot workspace of a store made by createStoreWorkspaces; undefined in any other database. */
export async function storeHotWorkspace(db: Knex): Promise<string | undefined> {
  const row = await db('workspaces').where({ name: HOT_NAME }).first<{ id: string } | undefined>('id');
  return row?.id;
}

/** The rows a COPY of events at ids above `afterId` brings with it, in `workspaceId`, tagged `tag` to stay unique. */
async function companions(db: Knex, workspaceId: string, afterId: number, count: number, tag: string): Promise<void> {
  const range = [workspaceId, afterId] as const;
  await db.raw(
    `INSERT INTO conversions (workspace_id, event_row_id, event_received_on, user_id, anonymous_id, message_id, source_event, tiktok_event, event_id, event_time, value, currency, status, reason, workflow_id,
                              attempts, ttclid, click_captured_at, click_anonymous_id, request_payload, created_at, completed_at)
     SELECT e.workspace_id, e.id, e.received_on, e.user_id, e.anonymous_id, e.message_id, 'purchase', 'CompletePayment', 'order-' || e.id, e.occurred_at, 42.5, 'USD', s.status,
            CASE s.status WHEN 'skipped' THEN 'no_ttclid' WHEN 'failed' THEN 'tiktok_rejected' END, 'conversion-growth-' || e.id, 1,
            CASE WHEN s.status = 'delivered' THEN 'E.C.P.' || e.id END, e.occurred_at - interval '1 hour', e.anonymous_id,
            CASE WHEN s.status = 'delivered' THEN jsonb_build_object('event_source', 'web', 'event_source_id', 'CGROWTHPIXEL00000001', 'data', jsonb_build_array(jsonb_build_object(
              'event', 'CompletePayment', 'event_id', 'order-' || e.id, 'event_time', extract(epoch FROM e.occurred_at)::bigint,
              'user', jsonb_build_object('email', md5(e.user_id) || md5(e.user_id || 'x'), 'ttclid', 'E.C.P.' || e.id, 'ip', '203.0.113.1', 'user_agent', 'Mozilla/5.0 (growth)'),
              'properties', jsonb_build_object('value', 42.5, 'currency', 'USD')))) END,
            e.received_at, e.received_at + interval '2 seconds'
     FROM events e
     CROSS JOIN LATERAL (SELECT (ARRAY['delivered','delivered','delivered','delivered','delivered','delivered','delivered','delivered','delivered','delivered','delivered','delivered','delivered','delivered',
                                       'skipped','skipped','skipped','skipped','failed','pending'])[1 + (e.id / 100) % 20] AS status) s
     WHERE e.workspace_id = ? AND e.id > ? AND e.id % 100 = 0`,
    range,
  );
  await db.raw(
    `INSERT INTO visitors (workspace_id, anonymous_id, ttclid, ttclid_captured_at, first_seen_at, last_seen_at, device_ip, device_user_agent)
     SELECT ?, ? || '-' || g, CASE WHEN g % 4 = 0 THEN 'E.C.P.' || ? || g END, CASE WHEN g % 4 = 0 THEN t.at END, t.at, t.at, '203.0.113.' || g % 250, 'Mozilla/5.0 (growth)'
     FROM generate_series(1, ?) g, (SELECT max(received_at) AS at FROM events WHERE workspace_id = ? AND id > ?) t`,
    [workspaceId, tag, tag, Math.floor(count / 10), ...range],
  );
  await db.raw(
    `INSERT INTO clicks (workspace_id, anonymous_id, ttclid, captured_at, page_url, campaign_id, adgroup_id, ad_id)
     SELECT ?, ? || '-' || g, 'E.C.P.' || ? || g, t.at, 'https://shop.example/landing' || chr(63) || 'ttclid=E.C.P.' || ? || g,
            (1800000000000000000 + g % 10)::text, (1810000000000000000 + g % 50)::text, (1820000000000000000 + g % 200)::text
     FROM generate_series(4, ?, 4) g, (SELECT max(received_at) AS at FROM events WHERE workspace_id = ? AND id > ?) t`,
    [workspaceId, tag, tag, tag, Math.floor(count / 10), ...range],
  );
  await db.raw(
    `INSERT INTO identity_links (workspace_id, from_kind, from_value, to_kind, to_value)
     SELECT ?, l.fk, l.fv, l.tk, l.tv FROM generate_series(1, ?) g
     CROSS JOIN LATERAL (VALUES ('user_id', ? || '-user-' || g, 'anonymous_id', ? || '-' || (g * 2)), ('user_id', ? || '-user-' || g, 'anonymous_id', ? || '-' || (g * 2 + 1)),
                                ('user_id', ? || '-user-' || g, 'email_sha256', encode(sha256((? || g || '@shop.example')::bytea), 'hex'))) AS e(a, b, c, d)
     CROSS JOIN LATERAL (VALUES (e.a, e.b, e.c, e.d), (e.c, e.d, e.a, e.b)) AS l(fk, fv, tk, tv)`,
    [workspaceId, Math.floor(count / 100), tag, tag, tag, tag, tag, tag],
  );
}

/**
 * Grows the store from `from` to `to` events by COPY, in chunks spread evenly over `days` (days back from now; received
 * when they occurred), every other chunk the hot workspace's, each with its visitors, clicks, conversions and links.
 */
export async function growStore(
  db: Knex,
  url: string,
  workspaces: StoreWorkspaces,
  { from, to, days }: { from: number; to: number; days: { from: number; to: number } },
  log: (line: string) => void,
): Promise<void> {
  const chunks = Math.ceil((to - from) / CHUNK);
  const today = dayOf(new Date());
  await createEventDayRepository(db).ensure(addDays(today, -days.to - 1), today);
  const started = performance.now();
  for (let c = 0; c < chunks; c += 1) {
    const count = Math.min(CHUNK, to - from - c * CHUNK);
    const workspaceId = c % 2 === 0 ? workspaces.hot : (workspaces.others[Math.floor(c / 2) % workspaces.others.length] as string);
    const endsAt = Date.now() - days.to * DAY_MS + ((c + 1) / chunks) * (days.to - days.from) * DAY_MS - 60_000;
    const { rows } = await db.raw<{ rows: { id: string }[] }>('SELECT coalesce(max(id), 0) AS id FROM events');
    await copyEvents(url, workspaceId, benchEvents(count, endsAt), () => undefined);
    await companions(db, workspaceId, Number(rows[0]?.id), count, `g${from + c * CHUNK}`);
    if ((c + 1) % 20 === 0 || c === chunks - 1) {
      const seconds = (performance.now() - started) / 1000;
      log(`  loaded ${(from + c * CHUNK + count).toLocaleString('en-US')} events in ${seconds.toFixed(0)} s (${Math.round((c * CHUNK + count) / seconds).toLocaleString('en-US')}/s)`);
    }
  }
  await db.raw('VACUUM ANALYZE events, conversions, visitors, clicks, identity_links');
}
