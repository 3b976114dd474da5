import * as assert from 'assert';
import { readFileSync } from 'fs';
import * as path from 'path';

import { generateUuid, randomBytesUuid } from '../src/ids.js';
import { LIBRARY_NAME, LIBRARY_VERSION } from '../src/library.js';
import { SignalboxValidationError } from '../src/errors.js';
import { trackJson } from '../src/messages.js';
import { MAX_MESSAGE_BYTES } from '../src/rules/index.js';
import { closeTestClients, createTestClient } from './helpers/test-client.js';

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
    assert.strictEqual(messages[1].timestamp, '2021-03-04T06:06:07+01:00', 'an ISO-8601 string is sent as given');
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

  it('sends identify, group, page, screen and alias with their fields, and an anonymousId given in the options', async () => {
    const messages = await sentMessages(async (client) => {
      await client.identify('user-1', { email: 'ann@example.com', plan: 'pro' }, { anonymousId: 'anon-1' });
      await client.group('user-1', 'org-9', { name: 'Acme', employees: 40 });
      await client.page('user-1', 'Pricing', { url: 'https://example.com/pricing' });
      await client.page({ anonymousId: 'anon-2', name: 'Home', properties: { referrer: 'https://t.co/' } });
      await client.page('user-2');
      await client.screen('user-1', 'Cart', { items: 2 });
      await client.screen({ anonymousId: 'device-7', name: 'Onboarding' });
      await client.alias('user-1', 'anon-2');
    });
    const strip = ({ messageId: _id, timestamp: _time, context: _context, ...rest }: Record<string, unknown>) => rest;
    assert.deepStrictEqual(messages.map(strip), [
      { type: 'identify', userId: 'user-1', anonymousId: 'anon-1', traits: { email: 'ann@example.com', plan: 'pro' } },
      { type: 'group', userId: 'user-1', groupId: 'org-9', traits: { name: 'Acme', employees: 40 } },
      { type: 'page', userId: 'user-1', name: 'Pricing', properties: { url: 'https://example.com/pricing' } },
      { type: 'page', anonymousId: 'anon-2', name: 'Home', properties: { referrer: 'https://t.co/' } },
      { type: 'page', userId: 'user-2', properties: {} },
      { type: 'screen', userId: 'user-1', name: 'Cart', properties: { items: 2 } },
      { type: 'screen', anonymousId: 'device-7', name: 'Onboarding', properties: {} },
      { type: 'alias', userId: 'user-1', previousId: 'anon-2' },
    ]);
    for (const message of messages) assert.deepStrictEqual(message.context, { library: LIBRARY });
  });

  // The messages are the ingest API's own (src/rules), after the call's name.
  const invalidCalls: Array<[string, (client: ReturnType<typeof createTestClient>['client']) => Promise<void>, string]> = [
    ['track without userId or anonymousId', (c) => c.track({ event: 'purchase' } as never), 'track(): the event needs a userId or an anonymousId'],
    ['track with userId undefined (the webhook case)', (c) => c.track({ event: 'purchase', userId: undefined as unknown as string }), 'track(): the event needs a userId or an anonymousId'],
    ['track without event', (c) => c.track({ userId: 'u' } as never), 'track(): event is required for track messages'],
    ['track with a string', (c) => c.track('purchase' as never), 'track(): expected an options object like { event, userId }, got string'],
    ['track with a blank event', (c) => c.track({ event: '  ', userId: 'u' }), 'track(): event must not be empty'],
    ['track with an event name over 200 characters', (c) => c.track({ event: 'e'.repeat(201), userId: 'u' }), 'track(): event must be at most 200 characters'],
    ['track with a userId over 1024 characters', (c) => c.track({ event: 'e', userId: 'u'.repeat(1025) }), 'track(): userId must be at most 1024 characters'],
    ['track with a messageId over 256 characters', (c) => c.track({ event: 'e', userId: 'u', messageId: 'm'.repeat(257) }), 'track(): messageId must be at most 256 characters'],
    ['page with a name over 200 characters', (c) => c.page('u', 'n'.repeat(201)), 'page(): name must be at most 200 characters'],
    ['track with array properties', (c) => c.track({ event: 'e', userId: 'u', properties: [] as never }), 'track(): properties must be an object'],
    ['track with "12345" as timestamp', (c) => c.track({ event: 'e', userId: 'u', timestamp: '12345' }), 'track(): timestamp must be an ISO-8601 timestamp with a time zone, e.g. 2026-01-31T12:00:00Z'],
    ['track with a Date in year 12345', (c) => c.track({ event: 'e', userId: 'u', timestamp: new Date(Date.UTC(12345, 0, 1)) }), 'track(): timestamp must be an ISO-8601 timestamp with a time zone, e.g. 2026-01-31T12:00:00Z'],
    ['track with an invalid Date', (c) => c.track({ event: 'e', userId: 'u', timestamp: new Date('soon') }), 'track(): timestamp is an invalid Date'],
    ['track with a NUL in a property', (c) => c.track({ event: 'e', userId: 'u', properties: { note: 'a\u0000b' } }), 'track(): properties.note contains a NUL character (\\u0000), which cannot be stored'],
    ['track with a numeric messageId', (c) => c.track({ event: 'e', userId: 'u', messageId: 5 as never }), 'track(): messageId must be a string'],
    ['identify without userId', (c) => c.identify(undefined as never, {}), 'identify(): userId is required'],
    ['identify with string traits', (c) => c.identify('u', 'pro' as never), 'identify(): traits must be an object'],
    ['group without groupId', (c) => c.group('u', '' as never), 'group(): groupId must not be empty'],
    ['alias without previousId', (c) => c.alias('u', undefined as never), 'alias(): previousId is required for alias messages'],
    ['page without userId', (c) => c.page(undefined as never, 'Home'), 'page(): userId is required (or pass one object: page({ anonymousId, name, properties }))'],
    ['page object without identity', (c) => c.page({ name: 'Home' } as never), 'page(): the event needs a userId or an anonymousId'],
    ['screen with a numeric name', (c) => c.screen('u', 5 as never), 'screen(): name must be a string'],
  ];
  for (const [what, call, message] of invalidCalls) {
    it(`rejects ${what}, naming the field as the ingest API would, and queues nothing`, async () => {
      const { client } = createTestClient();
      await assert.rejects(call(client), (error: SignalboxValidationError) => {
        assert.ok(error instanceof SignalboxValidationError);
        assert.strictEqual(error.name, 'SignalboxValidationError');
        assert.strictEqual(error.message, message);
        return true;
      });
      assert.strictEqual(client.getStats().queued, 0);
    });
  }

  it('lists every problem of a call at once', async () => {
    const { client } = createTestClient();
    await assert.rejects(client.track({ event: ' ', userId: 'u', timestamp: 'later', messageId: '' }), (error: SignalboxValidationError) => {
      assert.deepStrictEqual(error.issues, [
        'messageId must not be empty',
        'timestamp must be an ISO-8601 timestamp with a time zone, e.g. 2026-01-31T12:00:00Z',
        'event must not be empty',
      ]);
      return true;
    });
  });

  it('rejects properties that cannot be converted to JSON', async () => {
    const { client } = createTestClient();
    const properties: Record<string, unknown> = { name: 'loop' };
    properties.self = properties;
    await assert.rejects(client.track({ event: 'e', userId: 'u', properties }), /^SignalboxValidationError: track\(\): properties nests objects and arrays more than 64 levels deep/);
    await assert.rejects(client.track({ event: 'e', userId: 'u', properties: { big: BigInt(1) } }), /^SignalboxValidationError: track\(\): the event cannot be converted to JSON/);
  });

  it('accepts an event of exactly 32 KiB of JSON and rejects one byte more, counting bytes, not characters', () => {
    const base = Buffer.byteLength(trackJson({ event: 'e', userId: 'u', messageId: 'm', timestamp: '2024-05-01T12:00:00.000Z', properties: { pad: '' } }));
    for (const character of ['a', 'é', '€']) {
      const charBytes = Buffer.byteLength(character);
      const fitting = MAX_MESSAGE_BYTES - ((MAX_MESSAGE_BYTES - base) % charBytes);
      const ofSize = (bytes: number) =>
        trackJson({ event: 'e', userId: 'u', messageId: 'm', timestamp: '2024-05-01T12:00:00.000Z', properties: { pad: character.repeat((bytes - base) / charBytes) } });
      assert.strictEqual(Buffer.byteLength(ofSize(fitting)), fitting);
      assert.throws(() => ofSize(fitting + charBytes), new RegExp(`^SignalboxValidationError: track\\(\\): the event is ${fitting + charBytes} bytes of JSON; the limit is 32768 bytes per message$`));
    }
  });

  it('sends what JSON.stringify would: Dates as ISO strings, toJSON results, undefined left out', async () => {
    const [message] = await sentMessages((client) =>
      client.track({ event: 'e', userId: 'u', properties: { when: new Date('2020-01-01T00:00:00.000Z'), skip: undefined, money: { toJSON: () => '12.50' }, quote: 'a "b" \\ c' } }),
    );
    assert.deepStrictEqual(message.properties, { when: '2020-01-01T00:00:00.000Z', money: '12.50', quote: 'a "b" \\ c' });
  });

  it('reports the version that package.json declares', () => {
    const packageJson = JSON.parse(readFileSync(path.join(__dirname, '../../../package.json'), 'utf8')) as { name: string; version: string };
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
