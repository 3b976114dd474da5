import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { createDatabase } from '../../db/knex';

/** Rows per INSERT: one short transaction each. */
const CHUNK = 250_000;

/** A scratch database on the server of `adminUrl`, dropped by `drop`. */
export async function scratchDatabase(adminUrl: string, label: string): Promise<{ db: Knex; url: string; drop(): Promise<void> }> {
  const name = `signalbox_bench_${label}_${randomBytes(4).toString('hex')}`;
  const admin = createDatabase({ url: adminUrl, poolMax: 1 });
  await admin.raw(`CREATE DATABASE ${name}`);
  const url = Object.assign(new URL(adminUrl), { pathname: `/${name}` }).toString();
  const db = createDatabase({ url, poolMax: 4 });
  return {
    db,
    url,
    async drop() {
      await db.destroy();
      await admin.raw(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.destroy();
    },
  };
}

/**
 * `count` events of one workspace received on `day` (spread over its hours), each message about 700 bytes of JSON
 * like the ingest benchmark's product views. `withDay`: the layout with partitions by day (its `received_on` column).
 * `timesOn`: the day whose hours their times spread over instead (a partition filled with times before now).
 */
export async function fillDay(db: Knex, workspaceId: string, day: string, count: number, { withDay, timesOn = day }: { withDay: boolean; timesOn?: string }): Promise<void> {
  for (let first = 1; first <= count; first += CHUNK) {
    const last = Math.min(count, first + CHUNK - 1);
    await db.raw(
      `INSERT INTO events (workspace_id, message_id, type, event_name, user_id, anonymous_id, occurred_at, received_at, ${withDay ? 'received_on, ' : ''}message)
       SELECT ?, md5(? || g), 'track', 'product_viewed', 'user-' || g % 5000, 'anon-' || g % 5000, at, at, ${withDay ? '?::date, ' : ''}
              jsonb_build_object('type', 'track', 'event', 'product_viewed', 'messageId', md5(? || g), 'timestamp', at, 'userId', 'user-' || g % 5000,
                'anonymousId', 'anon-' || g % 5000 || '-4d2c-9a1b-7f3e2c1d0b9a',
                'properties', jsonb_build_object('product_id', 'sku-' || 1000 + g % 500, 'name', 'Ceramic mug', 'category', 'kitchen', 'price', 12.5 + g % 40,
                  'currency', 'USD', 'quantity', 1 + g % 3),
                'context', jsonb_build_object('ip', '203.0.113.' || g % 250, 'locale', 'en-US',
                  'userAgent', 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
                  'page', jsonb_build_object('url', 'https://shop.example/products/sku-' || 1000 + g % 500 || chr(63) || 'utm_source=tiktok', 'referrer', 'https://www.tiktok.com/'),
                  'traits', jsonb_build_object('email', 'shopper' || g % 5000 || '@example.com')))
       FROM generate_series(?::int, ?::int) g
       CROSS JOIN LATERAL (SELECT ?::date + (g::float8 / ?) * interval '1 day' AS at) t`,
      [workspaceId, day, ...(withDay ? [day] : []), day, first, last, timesOn, count + 1],
    );
  }
  await db.raw('ANALYZE events');
}
