import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from '@temporalio/client';
import type { Knex } from 'knex';
import { FAKE_TIKTOK_ACCESS_TOKEN, FAKE_TIKTOK_PIXEL_CODE, type FakeTikTok } from '../../devstack/tiktok-fake';
import type { Repositories } from '../../db/repositories';
import { OUTBOX_SWEEPER_SCHEDULE_ID } from '../../temporal/schedules';
import type { Order } from './conversion-load';

/** A shop with a purchase rule, a TikTok pixel and an API key. */
export async function createPurchaseShop(repos: Repositories, name: string): Promise<{ workspaceId: string; key: string }> {
  const workspace = await repos.workspaces.create(name);
  await repos.conversionRules.put(workspace.id, { sourceEvent: 'purchase', tiktokEvent: 'CompletePayment', valueSource: 'order_total', fixedValue: null, currency: null });
  await repos.tiktokConnections.put(workspace.id, { accessToken: FAKE_TIKTOK_ACCESS_TOKEN, advertiserId: null, pixelCode: FAKE_TIKTOK_PIXEL_CODE });
  return { workspaceId: workspace.id, key: (await repos.apiKeys.create(workspace.id, 'backend')).key };
}

/** What the check reads: Signalbox's database, the fake TikTok, and Temporal to run the outbox sweeper. */
export interface DeliveryWitnesses {
  db: Knex;
  fake: FakeTikTok;
  temporal: Client;
}

/**
 * Waits until no conversion of the workspace is pending. Conversions whose wake-up failed (Temporal down) wait for the
 * outbox sweeper, which its schedule runs every minute: triggering it every 5 s instead saves that wait.
 */
async function settled({ db, temporal }: DeliveryWitnesses, workspaceId: string): Promise<void> {
  for (let round = 1; ; round += 1) {
    const [{ count }] = (await db('conversions').where({ workspace_id: workspaceId, status: 'pending' }).count({ count: '*' })) as [{ count: string }];
    if (Number(count) === 0) return;
    if (round > 600) throw new Error(`${count} conversions still pending`);
    if (round % 25 === 0) await temporal.schedule.getHandle(OUTBOX_SWEEPER_SCHEDULE_ID).trigger();
    await sleep(200);
  }
}

/** Every order acknowledged, stored once, made one conversion, delivered and counted once by TikTok. */
export async function expectEachOrderOnceAtTikTok(witnesses: DeliveryWitnesses, workspaceId: string, orders: readonly Order[]): Promise<void> {
  const { db, fake } = witnesses;
  expect(orders.filter((sent) => sent.answer !== 200).map(({ orderId, answer }) => ({ orderId, answer }))).toEqual([]);

  const stored = (await db('events').where({ workspace_id: workspaceId }).select('message_id')) as { message_id: string }[];
  expect(stored.map((row) => row.message_id).sort()).toEqual(orders.flatMap((sent) => sent.messageIds).sort());

  await settled(witnesses, workspaceId);
  const conversions = (await db('conversions').where({ workspace_id: workspaceId }).select('message_id', 'event_id', 'status', 'reason')) as {
    message_id: string;
    event_id: string;
    status: string;
    reason: string | null;
  }[];
  expect(conversions.map((c) => c.message_id).sort()).toEqual(orders.map((sent) => sent.messageIds[1]).sort());
  expect(conversions.filter((c) => c.status !== 'delivered')).toEqual([]);

  const counted = new Map<string, number>();
  for (const event of (await fake.receivedEvents()).events) {
    if (!event.deduplicated && event.eventId !== undefined) counted.set(event.eventId, (counted.get(event.eventId) ?? 0) + 1);
  }
  const notOnce = conversions.filter((c) => counted.get(c.event_id) !== 1).map((c) => ({ eventId: c.event_id, counted: counted.get(c.event_id) ?? 0 }));
  expect(notOnce).toEqual([]);
}
