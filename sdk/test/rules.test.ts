import * as assert from 'assert';

import {
  checkMessage,
  correctedTimestampProblem,
  formatIssue,
  MAX_MESSAGE_BYTES,
  MAX_NESTING_DEPTH,
  parseTimestamp,
  type MessageCheck,
} from '../src/rules/index.js';

/** The issues of a message as the ingest API words them for batch[3], or 'ok'. */
function issuesOf(raw: unknown): string[] | 'ok' {
  const check: MessageCheck = checkMessage(raw);
  return check.ok ? 'ok' : check.issues.map((issue) => formatIssue(issue, 'batch[3]'));
}

function nested(depth: number): unknown {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i += 1) value = [value];
  return value;
}

const track = (fields: Record<string, unknown>) => ({ type: 'track', event: 'purchase', userId: 'u-1', ...fields });
const NOT_ISO = 'batch[3].timestamp must be an ISO-8601 timestamp with a time zone, e.g. 2026-01-31T12:00:00Z';
const OUT_OF_YEARS = 'batch[3].timestamp must be between 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z';

describe('message rules (shared with the ingest API)', () => {
  const cases: [string, unknown, string[] | 'ok'][] = [
    ['a minimal track', track({}), 'ok'],
    ['not an object', 'purchase', ['batch[3] must be a message object with a type (track, identify, page, screen, group, alias)']],
    ['an unknown type', { type: 'view', userId: 'u' }, ['batch[3].type must be one of track, identify, page, screen, group, alias']],
    ['a track without event', { type: 'track', userId: 'u' }, ['batch[3].event is required for track messages']],
    ['a blank event', track({ event: '   ' }), ['batch[3].event must not be empty']],
    ['an event over 200 characters', track({ event: 'e'.repeat(201) }), ['batch[3].event must be at most 200 characters']],
    ['no identity', { type: 'track', event: 'e', userId: '', anonymousId: null }, ['batch[3] needs a userId or an anonymousId']],
    ['an object as userId', track({ userId: {} }), ['batch[3].userId must be a string or a number']],
    ['a userId over 1024 characters', track({ userId: 'u'.repeat(1025) }), ['batch[3].userId must be at most 1024 characters']],
    ['a userId over 1024 bytes', track({ userId: 'é'.repeat(600) }), ['batch[3].userId must be at most 1024 bytes of UTF-8 (characters beyond ASCII take 2 to 4 bytes)']],
    ['an empty messageId', track({ messageId: '' }), ['batch[3].messageId must not be empty']],
    ['a numeric messageId', track({ messageId: 5 }), ['batch[3].messageId must be a string']],
    ['"12345" as timestamp', track({ timestamp: '12345' }), [NOT_ISO]],
    ['a timestamp without zone', track({ timestamp: '2026-01-01T00:00:00' }), [NOT_ISO]],
    ['February 30th', track({ timestamp: '2026-02-30T00:00:00Z' }), [NOT_ISO]],
    ['year 0000', track({ timestamp: '0000-06-01T00:00:00Z' }), [OUT_OF_YEARS]],
    ['year 0001 that is year 0000 in UTC', track({ timestamp: '0001-01-01T00:30:00+01:00' }), [OUT_OF_YEARS]],
    ['year 9999 that is year 10000 in UTC', track({ timestamp: '9999-12-31T23:30:00-01:00' }), [OUT_OF_YEARS]],
    ['the first storable instant', track({ timestamp: '0001-01-01T00:00:00Z' }), 'ok'],
    ['nanoseconds and an offset', track({ timestamp: '2026-01-01T00:00:00.123456789+05:30' }), 'ok'],
    ['properties as an array', track({ properties: [] }), ['batch[3].properties must be an object']],
    ['a NUL in the event name', track({ event: 'pur\u0000chase' }), ['batch[3].event contains a NUL character (\\u0000), which cannot be stored']],
    ['a NUL in a property value', track({ properties: { items: [{ name: 'a\u0000' }] } }), ['batch[3].properties.items[0].name contains a NUL character (\\u0000), which cannot be stored']],
    ['a NUL in a property key', track({ properties: { 'a\u0000b': 1 } }), ['batch[3].properties has a key "a\\u0000b" that contains a NUL character (\\u0000), which cannot be stored']],
    ['a lone high surrogate', track({ context: { page: { title: 'x\ud800' } } }), ['batch[3].context.page.title contains an unpaired UTF-16 surrogate (\\ud800), which is not valid Unicode']],
    ['a lone low surrogate in a traits key', { type: 'identify', userId: 'u', traits: { '\udc00': 1 } }, ['batch[3].traits has a key "\\udc00" that contains an unpaired UTF-16 surrogate (\\udc00), which is not valid Unicode']],
    ['a "__proto__" key', track({ properties: JSON.parse('{"cart":{"__proto__":{"admin":true}}}') }), ['batch[3].properties.cart has a key "__proto__", which is refused (it could alter object prototypes)']],
    ['a "constructor" key holding a prototype', track({ traits: { constructor: { prototype: {} } } }), ['batch[3].traits has a key "constructor" holding a "prototype", which is refused (it could alter object prototypes)']],
    ['a "constructor" key holding a string', track({ traits: { constructor: 'Acme' } }), 'ok'],
    ['a paired surrogate (an emoji)', track({ properties: { note: '🌿 ok' } }), 'ok'],
    ['a NUL in userId', track({ userId: 'u\u0000' }), ['batch[3].userId contains a NUL character (\\u0000), which cannot be stored']],
    [`nesting ${MAX_NESTING_DEPTH} levels (the limit)`, track({ properties: { a: nested(MAX_NESTING_DEPTH - 2) } }), 'ok'],
    [`nesting ${MAX_NESTING_DEPTH + 1} levels`, track({ properties: { a: nested(MAX_NESTING_DEPTH - 1) } }), [`batch[3].properties nests objects and arrays more than ${MAX_NESTING_DEPTH} levels deep (counting the message); flatten it`]],
    ['arrays 5,000 deep', track({ properties: { a: nested(5000) } }), [`batch[3].properties nests objects and arrays more than ${MAX_NESTING_DEPTH} levels deep (counting the message); flatten it`]],
    ['an order_id over 1024 characters', track({ properties: { order_id: 'o'.repeat(1025) } }), ['batch[3].properties.order_id must be at most 1024 characters']],
    ['an eventId over 1024 characters', track({ properties: { eventId: 'e'.repeat(1025) } }), ['batch[3].properties.eventId must be at most 1024 characters']],
    ['a group without groupId', { type: 'group', userId: 'u' }, ['batch[3].groupId is required for group messages']],
    ['an alias with an empty previousId', { type: 'alias', userId: 'u', previousId: '' }, ['batch[3].previousId must not be empty']],
    ['an alias previousId over 1024 characters', { type: 'alias', userId: 'u', previousId: 'p'.repeat(1025) }, ['batch[3].previousId must be at most 1024 characters']],
    ['a page name that is a number', { type: 'page', userId: 'u', name: 5 }, ['batch[3].name must be a string']],
    ['several problems', { type: 'track', userId: 7, messageId: '', timestamp: 'soon', event: '' }, ['batch[3].messageId must not be empty', NOT_ISO, 'batch[3].event must not be empty']],
  ];
  for (const [name, raw, expected] of cases) {
    it(`${expected === 'ok' ? 'accepts' : 'refuses'} ${name}`, () => {
      assert.deepStrictEqual(issuesOf(raw), expected);
    });
  }

  it('keeps only known fields, turns numeric identifiers into strings and trims the event name', () => {
    const check = checkMessage({ type: 'track', event: '  signup ', userId: 42, anonymousId: null, writeKey: 'dk_x', properties: { plan: 'pro' } });
    assert.ok(check.ok);
    assert.deepStrictEqual(check.message, { userId: '42', anonymousId: null, properties: { plan: 'pro' }, type: 'track', event: 'signup' });
    assert.strictEqual(check.json, JSON.stringify(check.message));
  });

  it('refuses a message over 32 KiB of JSON as too large, counting UTF-8 bytes', () => {
    const blob = 'é'.repeat(MAX_MESSAGE_BYTES / 2);
    const bytes = Buffer.byteLength(JSON.stringify({ userId: 'u-1', properties: { blob }, type: 'track', event: 'purchase' }));
    const check = checkMessage(track({ properties: { blob } }));
    assert.ok(!check.ok);
    assert.deepStrictEqual(check.issues.map((issue) => [formatIssue(issue, 'batch[0]'), issue.tooLarge]), [
      [`batch[0] is ${bytes} bytes of JSON; the limit is ${MAX_MESSAGE_BYTES} bytes per message`, true],
    ]);
    assert.ok(checkMessage(track({ properties: { blob: 'e'.repeat(MAX_MESSAGE_BYTES - 100) } })).ok, 'ASCII of the same length fits');
  });

  it('holds a message to the limit its caller gives instead (the ingest API, for a signed webhook delivery)', () => {
    const blob = 'e'.repeat(MAX_MESSAGE_BYTES * 4);
    assert.ok(!checkMessage(track({ properties: { blob } })).ok);
    assert.ok(checkMessage(track({ properties: { blob } }), MAX_MESSAGE_BYTES * 5).ok);
    const over = checkMessage(track({ properties: { blob } }), MAX_MESSAGE_BYTES * 2);
    assert.ok(!over.ok);
    assert.deepStrictEqual(
      over.issues.map((issue) => formatIssue(issue, 'message')),
      [`message is ${Buffer.byteLength(JSON.stringify({ userId: 'u-1', properties: { blob }, type: 'track', event: 'purchase' }))} bytes of JSON; the limit is ${MAX_MESSAGE_BYTES * 2} bytes per message`],
    );
  });

  it('checks what JSON would carry: Dates as their ISO string, values JSON leaves out not at all', () => {
    assert.strictEqual(issuesOf(track({ properties: { at: new Date('2026-01-01T00:00:00Z'), skip: undefined, fn: () => 1 } })), 'ok');
    const looped: Record<string, unknown> = {};
    looped.self = looped;
    assert.deepStrictEqual(issuesOf(track({ properties: looped })), [
      `batch[3].properties nests objects and arrays more than ${MAX_NESTING_DEPTH} levels deep (counting the message); flatten it`,
    ]);
  });

  it('refuses a timestamp that clock-skew correction moves outside years 0001–9999', () => {
    const received = Date.parse('2026-06-01T00:00:00Z');
    const timestamp = parseTimestamp('9999-12-31T00:00:00Z') as number;
    assert.strictEqual(correctedTimestampProblem(timestamp, Date.parse('2026-05-01T00:00:00Z'), received),
      "must be between 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z after correcting for the sender's clock with sentAt (it becomes +010000-01-31T00:00:00.000Z)");
    assert.strictEqual(correctedTimestampProblem(timestamp, Date.parse('9999-12-31T00:00:01Z'), received), undefined);
  });
});
