import type { Knex } from 'knex';
import { addDays, createEventDayRepository, dayOf } from '../../db/repositories/event-days';

export interface SeedSize {
  events: number;
  /** One conversion per purchase event; purchases are every `events / conversions`-th event. */
  conversions: number;
  days: number;
}

export const BENCH_WORKSPACE = 'ws_console_bench';
export const BENCH_ADVERTISER = '7391846250173946281';

/**
 * A big workspace in plain SQL (generate_series), in minutes rather than hours: events spread evenly over `days` up to
 * now (pages, purchases, product views, identifies), one conversion per purchase (70% delivered with the payload that
 * was sent, 20% skipped by reason, 5% failed, 5% pending), visitors, clicks, identity links, 90 days of ad statistics,
 * change-log entries and refused requests. A few small workspaces keep the tables shared, as in production.
 */
export async function seed(db: Knex, size: SeedSize): Promise<void> {
  const every = Math.max(1, Math.round(size.events / size.conversions));
  const span = `${size.days} days`;
  const today = dayOf(new Date());
  await createEventDayRepository(db).ensure(addDays(today, -size.days - 1), today);
  await db.raw(`INSERT INTO workspaces (id, name) SELECT ?, 'Console bench' UNION ALL SELECT 'ws_small_' || g, 'Small ' || g FROM generate_series(1, 5) g`, [BENCH_WORKSPACE]);
  await db.raw(
    `INSERT INTO events (workspace_id, message_id, type, event_name, user_id, anonymous_id, occurred_at, received_at, received_on, message)
     SELECT ?, 'm-' || g, t.type, t.name, 'u-' || (g % 50000), 'a-' || (g % 200000), at, at, (at AT TIME ZONE 'UTC')::date,
            jsonb_build_object('type', t.type, 'messageId', 'm-' || g, 'event', t.name, 'userId', 'u-' || (g % 50000), 'anonymousId', 'a-' || (g % 200000),
              'properties', jsonb_build_object('order_id', 'o-' || g, 'total', (g % 200) + 0.5, 'currency', 'USD'),
              'context', jsonb_build_object('ip', '203.0.113.' || (g % 250), 'userAgent', 'Mozilla/5.0 (bench)', 'page', jsonb_build_object('url', 'https://shop.example/p/' || (g % 1000))))
     FROM generate_series(1, ?) g
     CROSS JOIN LATERAL (SELECT now() - interval '${span}' + (g::float8 / ?) * interval '${span}' AS at) a
     CROSS JOIN LATERAL (SELECT CASE WHEN g % ? = 0 THEN 'track' WHEN g % 10 IN (1, 3, 5, 7) THEN 'page' WHEN g % 10 = 4 THEN 'identify' ELSE 'track' END AS type,
                                CASE WHEN g % ? = 0 THEN 'purchase' WHEN g % 10 IN (1, 3, 5, 7) THEN NULL WHEN g % 10 = 4 THEN NULL WHEN g % 10 = 9 THEN 'add_to_cart' ELSE 'view_content' END AS name) t`,
    [BENCH_WORKSPACE, size.events, size.events, every, every],
  );
  await db.raw(
    `INSERT INTO conversions (workspace_id, event_row_id, event_received_on, user_id, anonymous_id, message_id, source_event, tiktok_event, event_id, event_time, value, currency, status, reason,
                              workflow_id, attempts, ttclid, click_captured_at, click_anonymous_id, click_campaign_id, click_adgroup_id, click_ad_id,
                              tiktok_code, tiktok_message, tiktok_request_id, request_payload, created_at, completed_at)
     SELECT e.workspace_id, e.id, e.received_on, e.user_id, e.anonymous_id, e.message_id, 'purchase', 'CompletePayment', 'o-' || substr(e.message_id, 3), e.occurred_at, 10.5, 'USD', s.status, s.reason,
            'conversion-bench-' || e.id, CASE WHEN s.status = 'pending' THEN 0 ELSE 1 END,
            CASE WHEN s.status = 'delivered' THEN 'E.C.P.' || e.id END, CASE WHEN s.status = 'delivered' THEN e.occurred_at - interval '1 hour' END,
            CASE WHEN s.status = 'delivered' THEN e.anonymous_id END,
            CASE WHEN s.status = 'delivered' THEN (1800000000000000000 + e.id % 10)::text END,
            CASE WHEN s.status = 'delivered' THEN (1810000000000000000 + e.id % 50)::text END,
            CASE WHEN s.status = 'delivered' THEN (1820000000000000000 + (e.id / ${every}) % 200)::text END,
            CASE s.status WHEN 'delivered' THEN 0 WHEN 'failed' THEN 40002 END, CASE s.status WHEN 'delivered' THEN 'OK' WHEN 'failed' THEN 'Invalid value for event_source_id' END,
            CASE WHEN s.status IN ('delivered', 'failed') THEN '20261123000000' || upper(md5(e.id::text)) END,
            CASE WHEN s.status = 'delivered' THEN jsonb_build_object('event_source', 'web', 'event_source_id', 'CBENCHPIXEL000000001', 'data', jsonb_build_array(jsonb_build_object(
              'event', 'CompletePayment', 'event_id', 'o-' || substr(e.message_id, 3), 'event_time', extract(epoch FROM e.occurred_at)::bigint,
              'user', jsonb_strip_nulls(jsonb_build_object('email', md5(e.user_id) || md5(e.user_id || 'x'), 'ttclid', 'E.C.P.' || e.id, 'ip', '203.0.113.1', 'user_agent', 'Mozilla/5.0 (bench)',
                                                           'ttp', CASE WHEN e.id % 3 = 0 THEN 'ttp-' || e.id END, 'phone', CASE WHEN e.id % 4 = 0 THEN md5(e.id::text) || md5(e.id::text) END)),
              'properties', jsonb_build_object('value', 10.5, 'currency', 'USD')))) END,
            e.received_at, CASE WHEN s.status <> 'pending' THEN e.received_at + interval '2 seconds' END
     FROM events e
     CROSS JOIN LATERAL (SELECT CASE WHEN (e.id / ${every}) % 20 < 14 THEN 'delivered' WHEN (e.id / ${every}) % 20 < 18 THEN 'skipped' WHEN (e.id / ${every}) % 20 = 18 THEN 'failed' ELSE 'pending' END AS status,
                                CASE WHEN (e.id / ${every}) % 20 < 14 THEN NULL WHEN (e.id / ${every}) % 20 < 17 THEN 'no_ttclid' WHEN (e.id / ${every}) % 20 = 17 THEN 'click_outside_attribution_window' WHEN (e.id / ${every}) % 20 = 18 THEN 'tiktok_rejected' END AS reason) s
     WHERE e.workspace_id = ? AND e.event_name = 'purchase'`,
    [BENCH_WORKSPACE],
  );
  await db.raw(
    `INSERT INTO visitors (workspace_id, anonymous_id, ttclid, ttclid_captured_at, first_seen_at, last_seen_at)
     SELECT ?, 'a-' || g, CASE WHEN g % 4 = 0 THEN 'E.C.P.v' || g END, CASE WHEN g % 4 = 0 THEN now() - interval '3 days' END, now() - interval '${span}', now() - (g % 90) * interval '1 day'
     FROM generate_series(0, 199999) g`,
    [BENCH_WORKSPACE],
  );
  await db.raw(
    `INSERT INTO clicks (workspace_id, anonymous_id, ttclid, captured_at, page_url, campaign_id, adgroup_id, ad_id)
     SELECT ?, 'a-' || (g * 4), 'E.C.P.v' || (g * 4), now() - (g % 90) * interval '1 day', 'https://shop.example/' || chr(63) || 'ttclid=E.C.P.v' || (g * 4),
            (1800000000000000000 + g % 10)::text, (1810000000000000000 + g % 50)::text, (1820000000000000000 + g % 200)::text
     FROM generate_series(0, 49999) g`,
    [BENCH_WORKSPACE],
  );
  // Each user has two devices and a hashed email: u-k ↔ a-k, a-(k+50000), email_sha256; both directions stored.
  await db.raw(
    `INSERT INTO identity_links (workspace_id, from_kind, from_value, to_kind, to_value)
     SELECT ?, l.fk, l.fv, l.tk, l.tv FROM generate_series(0, 49999) g
     CROSS JOIN LATERAL (VALUES ('user_id', 'u-' || g, 'anonymous_id', 'a-' || g), ('user_id', 'u-' || g, 'anonymous_id', 'a-' || (g + 50000)),
                                ('user_id', 'u-' || g, 'email_sha256', encode(sha256(('user' || g || '@shop.example')::bytea), 'hex'))) AS e(a, b, c, d)
     CROSS JOIN LATERAL (VALUES (e.a, e.b, e.c, e.d), (e.c, e.d, e.a, e.b)) AS l(fk, fv, tk, tv)`,
    [BENCH_WORKSPACE],
  );
  await db.raw(
    `INSERT INTO ad_entities (workspace_id, level, entity_id, advertiser_id, campaign_id, adgroup_id, name, status)
     SELECT ?, 'campaign', (1800000000000000000 + g)::text, ?, NULL, NULL, 'Campaign ' || g, 'ENABLE' FROM generate_series(0, 9) g
     UNION ALL SELECT ?, 'adgroup', (1810000000000000000 + g)::text, ?, (1800000000000000000 + g % 10)::text, NULL, 'Ad group ' || g, 'ENABLE' FROM generate_series(0, 49) g
     UNION ALL SELECT ?, 'ad', (1820000000000000000 + g)::text, ?, (1800000000000000000 + g % 10)::text, (1810000000000000000 + g % 50)::text, 'Ad ' || g, 'ENABLE' FROM generate_series(0, 199) g`,
    [BENCH_WORKSPACE, BENCH_ADVERTISER, BENCH_WORKSPACE, BENCH_ADVERTISER, BENCH_WORKSPACE, BENCH_ADVERTISER],
  );
  await db.raw(
    `INSERT INTO ad_stats_daily (workspace_id, level, entity_id, stat_date, advertiser_id, campaign_id, adgroup_id, spend, impressions, clicks, conversions, conversion_value)
     SELECT ?, e.level, e.entity_id, d::date, ?, coalesce(e.campaign_id, e.entity_id), CASE WHEN e.level = 'ad' THEN e.adgroup_id WHEN e.level = 'adgroup' THEN e.entity_id END,
            12.34, 1000, 30, 2, 21
     FROM ad_entities e CROSS JOIN generate_series(current_date - ?::int, current_date, interval '1 day') d
     WHERE e.workspace_id = ?`,
    [BENCH_WORKSPACE, BENCH_ADVERTISER, size.days, BENCH_WORKSPACE],
  );
  await db.raw(
    `INSERT INTO change_log (workspace_id, at, actor, action, target, before, after)
     SELECT ?, now() - g * interval '1 hour', 'operator', 'rule.put', 'purchase', NULL, jsonb_build_object('event', 'purchase') FROM generate_series(1, 2000) g`,
    [BENCH_WORKSPACE],
  );
  await db.raw(
    `INSERT INTO ingest_refusals (workspace_id, at, status, error, message, path, key_prefix)
     SELECT ?, now() - g * interval '1 minute', 400, 'invalid_request', 'batch[0].event is required for track messages', '/v1/batch', 'dk_bench0' FROM generate_series(1, 2000) g`,
    [BENCH_WORKSPACE],
  );
  await db.raw("INSERT INTO conversion_rules (workspace_id, source_event, tiktok_event, value_source) VALUES (?, 'purchase', 'CompletePayment', 'order_total'), (?, 'add_to_cart', 'AddToCart', 'none')", [
    BENCH_WORKSPACE,
    BENCH_WORKSPACE,
  ]);
}
