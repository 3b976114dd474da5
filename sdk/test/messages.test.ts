import * as assert from 'assert';
import { readFileSync } from 'fs';
import * as path from 'path';

import { generateUuid, randomBytesUuid } from '../src/ids';
import { LIBRARY_NAME, LIBRARY_VERSION } from '../src/library';
import { MAX_MESSAGE_BYTES } from '../src/limits';
import { buildTrack, serializeMessage, type WireMessage } from '../src/messages';
import { closeTestClients, createTestClient } from './helpers/test-client';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const LIBRARY = { name: LIBRARY_NAME, version: LIBRARY_VERSION };

describe('messages', () => {
  afterEach(closeTestClients);

  async function sentMessages(calls: (client: ReturnType<typeof createTestClient>['client']) => Promise<void>) {
    const { client, transport } = createTestClient();
    await calls(client);
    await client.flush();
    return transport.messages;
  }

  it('sends a track call with a generated messageId, the call time and the library in context', async () => {
    const before = Date.now();
    const [message] = await sentMessages((client) =>
      client.track({ event: 'purchase', userId: 'user-1', properties: { revenue: 49.9, currency: 'EUR' } }),
    );
    assert.match(message.messageId, UUID_V4);
    const timestamp = Date.parse(message.timestamp as string);
    assert.ok(timestamp >= before && timestamp <= Date.now(), `timestamp ${String(message.timestamp)} is the call time`);
    assert.deepStrictEqual({ ...message, messageId: 'id', timestamp: 'time' }, {
      type: 'track',
      messageId: 'id',
      timestamp: 'time',
      userId: 'user-1',
      event: 'purchase',
      properties: { revenue: 49.9, currency: 'EUR' },
      context: { library: LIBRARY },
    });
  });

  it('keeps the caller’s messageId and timestamp, for historical imports', async () => {
    const messages = await sentMessages(async (client) => {
      await client.track({ event: 'signup', userId: 'u', messageId: 'order-42-signup', timestamp: new Date('2021-03-04T05:06:07.000Z') });
      await client.track({ event: 'signup', anonymousId: 'a', timestamp: '2021-03-04T06:06:07+01:00' });
    });
    assert.strictEqual(messages[0].messageId, 'order-42-signup');
    assert.strictEqual(messages[0].timestamp, '2021-03-04T05:06:07.000Z');
    assert.strictEqual(messages[1].timestamp, '2021-03-04T05:06:07.000Z');
  });

  it('merges the caller’s context and always sets the library itself', async () => {
    const [message] = await sentMessages((client) =>
      client.track({ event: 'lead', userId: 'u', context: { ip: '203.0.113.9', ttclid: 'E.C.P.abc', library: { name: 'spoof' } } }),
    );
    assert.deepStrictEqual(message.context, { ip: '203.0.113.9', ttclid: 'E.C.P.abc', library: LIBRARY });
  });

  it('gives every message its own messageId', async () => {
    const messages = await sentMessages(async (client) => {
      for (let i = 0; i < 50; i += 1) await client.track({ event: 'view_content', anonymousId: 'a' });
    });
    assert.strictEqual(new Set(messages.map((message) => message.messageId)).size, 50);
  });

  it('sends identify, group and page with their fields, and an anonymousId given in the options', async () => {
    const messages = await sentMessages(async (client) => {
      await client.identify('user-1', { email: 'ann@example.com', plan: 'pro' }, { anonymousId: 'anon-1' });
      await client.group('user-1', 'org-9', { name: 'Acme', employees: 40 });
      await client.page('user-1', 'Pricing', { url: 'https://example.com/pricing' });
      await client.page({ anonymousId: 'anon-2', name: 'Home', properties: { referrer: 'https://t.co/' } });
      await client.page('user-2');
    });
    const strip = ({ messageId: _id, timestamp: _time, context: _context, ...rest }: Record<string, unknown>) => rest;
    assert.deepStrictEqual(messages.map(strip), [
      { type: 'identify', userId: 'user-1', anonymousId: 'anon-1', traits: { email: 'ann@example.com', plan: 'pro' } },
      { type: 'group', userId: 'user-1', groupId: 'org-9', traits: { name: 'Acme', employees: 40 } },
      { type: 'page', userId: 'user-1', name: 'Pricing', properties: { url: 'https://example.com/pricing' } },
      { type: 'page', anonymousId: 'anon-2', name: 'Home', properties: { referrer: 'https://t.co/' } },
      { type: 'page', userId: 'user-2', properties: {} },
    ]);
    for (const message of messages) assert.deepStrictEqual(message.context, { library: LIBRARY });
  });

  const invalidCalls: Array<[string, (client: ReturnType<typeof createTestClient>['client']) => Promise<void>, RegExp]> = [
    ['track without userId or anonymousId', (c) => c.track({ event: 'purchase' }), /^track\(\): userId or anonymousId is required/],
    ['track without event', (c) => c.track({ userId: 'u' } as never), /^track\(\): event is required$/],
    ['track with a string', (c) => c.track('purchase' as never), /^track\(\): expected an options object like \{ event, userId \}, got string$/],
    ['track with an empty event', (c) => c.track({ event: '', userId: 'u' }), /^track\(\): event is required$/],
    ['track with a numeric userId', (c) => c.track({ event: 'e', userId: 7 as never }), /^track\(\): userId must be a string, got number$/],
    ['track with an empty anonymousId', (c) => c.track({ event: 'e', anonymousId: '' }), /^track\(\): anonymousId must not be empty or blank$/],
    ['track with a blank event', (c) => c.track({ event: '  ', userId: 'u' }), /^track\(\): event must not be empty or blank$/],
    ['track with an event name over 200 characters', (c) => c.track({ event: 'e'.repeat(201), userId: 'u' }), /^track\(\): event must be at most 200 characters, got 201$/],
    ['track with a userId over 1024 characters', (c) => c.track({ event: 'e', userId: 'u'.repeat(1025) }), /^track\(\): userId must be at most 1024 characters, got 1025$/],
    ['track with a messageId over 256 characters', (c) => c.track({ event: 'e', userId: 'u', messageId: 'm'.repeat(257) }), /^track\(\): messageId must be at most 256 characters, got 257$/],
    ['page with a name over 200 characters', (c) => c.page('u', 'n'.repeat(201)), /^page\(\): name must be at most 200 characters, got 201$/],
    ['track with array properties', (c) => c.track({ event: 'e', userId: 'u', properties: [] as never }), /^track\(\): properties must be an object, got an array$/],
    ['track with an invalid timestamp', (c) => c.track({ event: 'e', userId: 'u', timestamp: 'yesterday' }), /^track\(\): timestamp must be a Date or an ISO-8601 string/],
    ['track with a numeric messageId', (c) => c.track({ event: 'e', userId: 'u', messageId: 5 as never }), /^track\(\): messageId must be a string, got number$/],
    ['identify without userId', (c) => c.identify(undefined as never, {}), /^identify\(\): userId is required$/],
    ['identify with string traits', (c) => c.identify('u', 'pro' as never), /^identify\(\): traits must be an object, got string$/],
    ['group without groupId', (c) => c.group('u', '' as never), /^group\(\): groupId is required$/],
    ['page without userId', (c) => c.page(undefined as never, 'Home'), /^page\(\): userId is required$/],
    ['page object without identity', (c) => c.page({ name: 'Home' }), /^page\(\): userId or anonymousId is required/],
    ['page with a numeric name', (c) => c.page('u', 5 as never), /^page\(\): name must be a string, got number$/],
  ];
  for (const [what, call, message] of invalidCalls) {
    it(`rejects ${what}, naming the field, and queues nothing`, async () => {
      const { client } = createTestClient();
      await assert.rejects(call(client), (error: Error) => {
        assert.ok(error instanceof Error);
        assert.match(error.message, message);
        return true;
      });
      assert.strictEqual(client.getStats().queued, 0);
    });
  }

  it('rejects properties that cannot be converted to JSON', async () => {
    const { client } = createTestClient();
    const properties: Record<string, unknown> = { name: 'loop' };
    properties.self = properties;
    await assert.rejects(client.track({ event: 'e', userId: 'u', properties }), /^TypeError: track\(\): the event cannot be converted to JSON \(.*circular/i);
    await assert.rejects(client.track({ event: 'e', userId: 'u', properties: { big: BigInt(1) } }), /cannot be converted to JSON/);
  });

  /** A track message whose JSON is exactly `bytes` long, padded with a character of `charBytes` UTF-8 bytes. */
  function trackOfSize(bytes: number, character: string): WireMessage {
    const message = buildTrack({ event: 'e', userId: 'u', properties: { pad: '' } });
    const base = Buffer.byteLength(JSON.stringify(message));
    const charBytes = Buffer.byteLength(character);
    const padBytes = bytes - base;
    assert.strictEqual(padBytes % charBytes, 0, 'pick sizes the character divides');
    return { ...message, properties: { pad: character.repeat(padBytes / charBytes) } };
  }

  it('accepts an event of exactly 32 KiB of JSON and rejects one byte more, counting bytes, not characters', () => {
    for (const character of ['a', 'é', '€']) {
      const base = Buffer.byteLength(JSON.stringify(buildTrack({ event: 'e', userId: 'u', properties: { pad: '' } })));
      const charBytes = Buffer.byteLength(character);
      const fitting = MAX_MESSAGE_BYTES - ((MAX_MESSAGE_BYTES - base) % charBytes);
      assert.strictEqual(Buffer.byteLength(serializeMessage('track()', trackOfSize(fitting, character))), fitting);
      assert.throws(
        () => serializeMessage('track()', trackOfSize(fitting + charBytes, character)),
        new RegExp(`^RangeError: track\\(\\): the event is ${fitting + charBytes} bytes as JSON, over the limit of 32768 bytes per event`),
      );
    }
  });

  it('rejects a track call over the size cap through the client', async () => {
    const { client } = createTestClient();
    await assert.rejects(
      client.track({ event: 'e', userId: 'u', properties: { blob: 'x'.repeat(MAX_MESSAGE_BYTES) } }),
      /^RangeError: track\(\): the event is \d+ bytes as JSON, over the limit of 32768 bytes per event/,
    );
    assert.strictEqual(client.getStats().queued, 0);
  });

  it('serializes exactly as JSON.stringify does, escapes and toJSON included', () => {
    const tricky: WireMessage = {
      type: 'page',
      messageId: 'id "quoted" \\ back',
      timestamp: '2024-05-01T12:00:00.000Z',
      userId: 'line\nbreak\u0001',
      anonymousId: undefined,
      name: 'snow ☃ and lone \ud800 surrogate',
      properties: { when: new Date('2020-01-01T00:00:00.000Z'), skip: undefined, nested: { list: [1, 'two', null] }, money: { toJSON: () => '12.50' } },
      context: { page: { url: 'https://example.com/?ttclid=E.C.P' }, library: LIBRARY },
    };
    assert.strictEqual(serializeMessage('page()', tricky), JSON.stringify(tricky));
    const plain = buildTrack({ event: 'e', userId: 'u' });
    assert.strictEqual(serializeMessage('track()', plain), JSON.stringify(plain));
  });

  it('reports the version that package.json declares', () => {
    const packageJson = JSON.parse(readFileSync(path.join(__dirname, '../../package.json'), 'utf8')) as { name: string; version: string };
    assert.deepStrictEqual(LIBRARY, { name: packageJson.name, version: packageJson.version });
  });

  it('makes version 4 UUIDs, with crypto.randomUUID and with the fallback for Node before 14.17', () => {
    const ids = new Set<string>();
    for (let i = 0; i < 1_000; i += 1) {
      for (const id of [generateUuid(), randomBytesUuid()]) {
        assert.match(id, UUID_V4);
        ids.add(id);
      }
    }
    assert.strictEqual(ids.size, 2_000);
  });

  it('gives each client its own anonymous ID, the same on every call', () => {
    const first = createTestClient().client;
    const second = createTestClient().client;
    assert.match(first.getAnonymousId(), UUID_V4);
    assert.strictEqual(first.getAnonymousId(), first.getAnonymousId());
    assert.notStrictEqual(first.getAnonymousId(), second.getAnonymousId());
  });
});
