import http from 'node:http';
import { gunzipSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';
import Signalbox from '@signalbox/api';
import type { FastifyInstance } from 'fastify';
import { buildTestApp } from './helpers/test-app';
import { daysAgo, ttclid } from './helpers/messages';
import { TestPipeline } from './helpers/pipeline';

/**
 * The whole path over real HTTP: the published client library → the ingest API → PostgreSQL → Temporal → the fake
 * TikTok. A proxy in front of ingest loses the answer to the first batch after the server committed it, so the
 * client retries a batch the server already stored.
 */
let pipeline: TestPipeline;
let app: FastifyInstance;
let proxy: http.Server;
let proxyUrl: string;
const forwarded: { body: string; answered: boolean }[] = [];

beforeAll(async () => {
  pipeline = await TestPipeline.start();
  ({ app } = buildTestApp(pipeline.database.db, { repos: pipeline.repos, recordBatch: pipeline.recordBatch, startConversions: pipeline.startConversions }));
  const ingestUrl = await app.listen({ port: 0, host: '127.0.0.1' });
  proxy = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      const record = { body: body.toString('base64'), answered: forwarded.length > 0 };
      forwarded.push(record);
      const upstream = http.request(`${ingestUrl}${request.url}`, { method: request.method, headers: request.headers }, (answer) => {
        answer.resume();
        answer.on('end', () => {
          if (!record.answered) {
            request.socket.destroy();
            return;
          }
          response.writeHead(answer.statusCode ?? 502, { 'content-type': 'application/json' });
          response.end('{"success":true}');
        });
      });
      upstream.end(body);
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => proxy.close(resolve));
  await app.close();
  await pipeline.close();
});

it('stores every event once though an acknowledged batch was retried, links identities and delivers the purchase', async () => {
  const ws = await pipeline.workspace({ rules: [{ sourceEvent: 'purchase' }] });
  const { key } = await pipeline.repos.apiKeys.create(ws.id, 'backend');
  const click = ttclid();
  const client = new Signalbox({ apiKey: key, host: proxyUrl, flushAt: 3, retryLimit: 3 });
  const errors: unknown[] = [];
  client.on('error', (error) => errors.push(error));

  await client.page({ anonymousId: 'web-visitor', name: 'Landing', properties: { url: `https://shop.example/?ttclid=${click}` }, timestamp: daysAgo(1) });
  await client.identify('buyer-1', { email: 'Buyer@Example.com' }, { anonymousId: 'web-visitor' });
  await client.track({ event: 'purchase', userId: 'buyer-1', properties: { order_id: 'sdk-order-1', total: 75, currency: 'USD' } });
  await client.close();

  expect(errors).toEqual([]);
  expect(forwarded.length).toBeGreaterThanOrEqual(2);
  const messageIds = (record: { body: string } | undefined) =>
    (JSON.parse(gunzipSync(Buffer.from(record?.body ?? '', 'base64')).toString()) as { batch: { messageId: string }[] }).batch.map((m) => m.messageId);
  expect(messageIds(forwarded[1])).toEqual(messageIds(forwarded[0]));
  const stored = await pipeline.database.db('events').where({ workspace_id: ws.id }).select('type', 'message_id');
  expect(stored.map((e) => e.type).sort()).toEqual(['identify', 'page', 'track']);

  const linked = await pipeline.repos.profiles.reachable(ws.id, [{ kind: 'user_id', value: 'buyer-1' }], 'anonymous_id');
  expect(linked).toEqual(['web-visitor']);

  const [conversion] = await pipeline.repos.conversions.list(ws.id, { limit: 10 });
  expect(await pipeline.settled(conversion!)).toMatchObject({ status: 'delivered', ttclid: click });
  const { events } = await pipeline.fake.receivedEvents();
  expect(events.filter((e) => e.eventId === 'sdk-order-1')).toHaveLength(1);
});

it('refuses at the call an event the ingest API would refuse, and stores every other event of the batch', async () => {
  const ws = await pipeline.workspace({ rules: [] });
  const { key } = await pipeline.repos.apiKeys.create(ws.id, 'import');
  const client = new Signalbox({ apiKey: key, host: proxyUrl, flushAt: 1_000, maxQueueSize: 1_000 });
  const failures: unknown[] = [];
  client.on('error', (error) => failures.push(error));
  const calls = Array.from({ length: 1_000 }, (_, row) =>
    client.track({ event: 'order_imported', userId: `customer-${row}`, messageId: `import-${row}`, timestamp: row === 500 ? '12345' : daysAgo(2) }),
  );
  const outcomes = await Promise.allSettled(calls);
  await client.close();

  const refused = outcomes.flatMap((outcome, row) => (outcome.status === 'rejected' ? [[row, (outcome.reason as Error).message]] : []));
  expect(refused).toEqual([[500, 'track(): timestamp must be an ISO-8601 timestamp with a time zone, e.g. 2026-01-31T12:00:00Z']]);
  expect(failures).toEqual([]);
  const [{ count }] = await pipeline.database.db('events').where({ workspace_id: ws.id }).count<{ count: string }[]>('* as count');
  expect(Number(count)).toBe(999);
});
