import * as assert from 'assert';

import { Signalbox } from '../src/client.js';
import type { SignalboxDeliveryError } from '../src/errors.js';
import { IngestDouble } from './helpers/ingest-double.js';

const API_KEY = 'dk_live_integration';

/** The client against a local HTTP ingest API that plays the wire contract, over real sockets and real timers. */
describe('client and ingest API over HTTP', () => {
  let ingest: IngestDouble;
  let host: string;
  const clients: Signalbox[] = [];

  function connect(config: { apiKey?: string; flushAt?: number } = {}): Signalbox {
    const client = new Signalbox({ apiKey: API_KEY, host, ...config });
    clients.push(client);
    return client;
  }

  beforeEach(async () => {
    ingest = new IngestDouble(new Set([API_KEY]));
    host = await ingest.start();
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close().catch(() => undefined)));
    await ingest.stop();
  });

  it('stores every kind of call once, with the fields that link identities', async () => {
    const client = connect({ flushAt: 3 });
    const anonymousId = client.getAnonymousId();
    await client.page({ anonymousId, name: 'Landing', properties: { url: 'https://shop.example/?ttclid=E.C.P.1' } });
    await client.identify('user-7', { email: 'ann@example.com' }, { anonymousId });
    await client.track({ event: 'purchase', userId: 'user-7', anonymousId, properties: { order_id: 'o-1', revenue: 120 } });
    await client.group('user-7', 'org-1', { name: 'Acme' });
    await client.flush();
    // Two batches were in flight at once, so they may have arrived in either order.
    const identities = [...ingest.stored.values()].map((message) => [message.type, message.userId, message.anonymousId]);
    assert.deepStrictEqual(identities.sort(), [
      ['group', 'user-7', undefined],
      ['identify', 'user-7', anonymousId],
      ['page', undefined, anonymousId],
      ['track', 'user-7', anonymousId],
    ]);
    assert.strictEqual(ingest.duplicates, 0);
  });

  it('stores each event once when a committed batch is retried because its response was lost', async () => {
    ingest.failNext({ commitThenStatus: 503, retryAfter: '0' }, { commitThenStatus: 500, retryAfter: '0' });
    const client = connect();
    for (let i = 0; i < 30; i += 1) await client.track({ event: 'signup', userId: `user-${i}` });
    await client.flush();
    assert.strictEqual(ingest.stored.size, 30);
    assert.ok(ingest.duplicates > 0, 'the server saw the batch again');
    assert.deepStrictEqual(ingest.statuses.slice(-1), [200]);
  });

  it('gets through a 429 and a dropped connection', async () => {
    ingest.failNext('reset', { status: 429, retryAfter: '0' });
    const client = connect();
    await client.track({ event: 'lead', userId: 'user-1' });
    await client.flush();
    assert.deepStrictEqual([...ingest.stored.values()].map((message) => message.event), ['lead']);
  });

  it('reports an unknown API key through flush() and the error listener, without retrying', async () => {
    const client = connect({ apiKey: 'dk_revoked' });
    const failures: SignalboxDeliveryError[] = [];
    client.on('error', (error) => failures.push(error));
    await client.track({ event: 'purchase', userId: 'user-1' });
    await assert.rejects(client.flush(), /^SignalboxFlushError: 1 of 1 event was not delivered: HTTP 401: unknown or revoked API key$/);
    assert.deepStrictEqual(ingest.statuses, [401]);
    assert.deepStrictEqual(failures.map((failure) => failure.statusCode), [401]);
  });
});
