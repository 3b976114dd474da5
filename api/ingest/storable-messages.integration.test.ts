import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import type { Workspace } from '../../db/repositories/workspaces';
import { checkMessage, EARLIEST_TIME_MS, LATEST_TIME_MS, MAX_IDENTIFIER_BYTES, timestampProblem } from '../../sdk/src/rules/index.js';
import { createTestDatabase, type TestDatabase } from '../../test/helpers/database';
import { buildTestApp, type TestApp } from '../../test/helpers/test-app';

/**
 * Property: every message the shared rules accept is stored by PostgreSQL through the real ingest path (route,
 * validation, clock-skew correction, events, profiles, clicks, identity links, conversions). The generators lean on
 * what storage is picky about: any Unicode (with NULs and unpaired surrogates mixed in, for the rules to refuse),
 * identifiers up to the byte limit, timestamps near years 0001 and 9999 with any offset and sentAt, deep nesting,
 * huge amounts and order IDs that become indexed conversion keys.
 */
let testDb: TestDatabase;
let subject: TestApp;
let app: FastifyInstance;
let shop: Workspace;
let key: string;

beforeAll(async () => {
  testDb = await createTestDatabase();
  subject = buildTestApp(testDb.db);
  app = subject.app;
  shop = await subject.repos.workspaces.create('Property shop');
  key = (await subject.repos.apiKeys.create(shop.id, 'backend')).key;
  await subject.repos.conversionRules.put(shop.id, { sourceEvent: 'purchase', tiktokEvent: 'CompletePayment', valueSource: 'order_total', fixedValue: null, currency: null });
  await subject.repos.conversionRules.put(shop.id, { sourceEvent: 'lead', tiktokEvent: 'SubmitForm', valueSource: 'fixed', fixedValue: 5, currency: 'EUR' });
});
afterAll(async () => {
  await app.close();
  await testDb.destroy();
});

/** Any code point, plus characters that need escaping or several UTF-8 bytes. */
const anyCharacter = fc.oneof(
  { weight: 6, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }).filter((c) => c !== '\u0000') },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }) },
  { weight: 1, arbitrary: fc.constantFrom('"', '\\', '\u2028', '🌿', 'é', '語') },
);
/** Now and then a string gets what the rules refuse (NUL, unpaired surrogates), so both sides of each rule are tried. */
const awkwardCharacter = fc.oneof({ weight: 10, arbitrary: anyCharacter }, { weight: 1, arbitrary: fc.constantFrom('\u0000', '\ud800', '\udfff') });
const text = (maxLength: number) =>
  fc.oneof({ weight: 20, arbitrary: fc.string({ unit: anyCharacter, maxLength }) }, { weight: 1, arbitrary: fc.string({ unit: awkwardCharacter, maxLength }) });
/** The longest start of `value` within `limit` bytes of UTF-8, whole code points only. */
function truncateToBytes(value: string, limit: number): string {
  let bytes = 0;
  let end = 0;
  for (const character of value) {
    bytes += Buffer.byteLength(character);
    if (bytes > limit) break;
    end += character.length;
  }
  return value.slice(0, end);
}
/** Mostly three-byte characters that compress poorly, to fill index entries with as many bytes as possible. */
const wideCharacter = fc.oneof({ weight: 3, arbitrary: fc.integer({ min: 0x4e00, max: 0x9fff }).map((code) => String.fromCharCode(code)) }, { weight: 1, arbitrary: anyCharacter });
/** Short, or long enough to press against the 1,024-byte identifier limit and the index entry size. */
const identifierText = fc.oneof(
  { weight: 4, arbitrary: text(16) },
  { weight: 4, arbitrary: fc.string({ unit: wideCharacter, minLength: 300, maxLength: MAX_IDENTIFIER_BYTES }).map((value) => truncateToBytes(value, MAX_IDENTIFIER_BYTES)) },
  { weight: 1, arbitrary: fc.string({ unit: wideCharacter, minLength: 300, maxLength: MAX_IDENTIFIER_BYTES }) },
);
const identifier = fc.oneof(identifierText, fc.constantFrom('', null), fc.double({ noNaN: true, noDefaultInfinity: true }));

const pad = (value: number, length: number) => String(value).padStart(length, '0');
/** An instant (biased to the ends of years 0001–9999) written with any offset, as ISO-8601. */
const timestamp = fc
  .record({
    ms: fc.oneof(
      { weight: 1, arbitrary: fc.integer({ min: EARLIEST_TIME_MS - 86_400_000, max: EARLIEST_TIME_MS + 86_400_000 }) },
      { weight: 1, arbitrary: fc.integer({ min: LATEST_TIME_MS - 86_400_000, max: LATEST_TIME_MS + 86_400_000 }) },
      { weight: 4, arbitrary: fc.integer({ min: EARLIEST_TIME_MS, max: LATEST_TIME_MS }) },
    ),
    offsetMinutes: fc.integer({ min: -(23 * 60 + 59), max: 23 * 60 + 59 }),
    fraction: fc.constantFrom('', '.5', '.123', '.123456789'),
  })
  .map(({ ms, offsetMinutes, fraction }) => {
    const local = new Date(ms + offsetMinutes * 60_000);
    const sign = offsetMinutes < 0 ? '-' : '+';
    const offset = offsetMinutes === 0 ? 'Z' : `${sign}${pad(Math.trunc(Math.abs(offsetMinutes) / 60), 2)}:${pad(Math.abs(offsetMinutes) % 60, 2)}`;
    const date = `${pad(local.getUTCFullYear(), 4)}-${pad(local.getUTCMonth() + 1, 2)}-${pad(local.getUTCDate(), 2)}`;
    return `${date}T${pad(local.getUTCHours(), 2)}:${pad(local.getUTCMinutes(), 2)}:${pad(local.getUTCSeconds(), 2)}${fraction}${offset}`;
  });

const jsonValue = fc.jsonValue({ maxDepth: 6, stringUnit: anyCharacter });
const amount = fc.oneof(fc.double({ min: 0, noNaN: true, noDefaultInfinity: true }), fc.constantFrom('99999999999999999999', '46.00', '0.00001', 1e15, 1.7976931348623157e308));
const deep = fc.integer({ min: 1, max: 64 }).map((depth) => {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i += 1) value = i % 2 === 0 ? [value] : { nested: value };
  return value;
});
const clickId = fc.oneof(fc.constant('E.C.P.abcDEF_123-xyz'), identifierText);
const properties = fc.record(
  {
    order_id: fc.oneof(identifierText, fc.integer()),
    event_id: identifierText,
    total: amount,
    value: amount,
    currency: fc.constantFrom('USD', 'eur', 'X'),
    ttclid: clickId,
    url: clickId.map((id) => `https://shop.example/p?ttclid=${id}`),
    tree: deep,
    extra: fc.dictionary(text(12), jsonValue, { maxKeys: 4 }),
  },
  { requiredKeys: [] },
);
const context = fc.record(
  {
    ip: fc.constantFrom('203.0.113.9', '2001:db8::1', 'not an ip'),
    userAgent: text(40),
    ttclid: clickId,
    ttp: clickId,
    page: fc.record({ url: clickId.map((id) => `https://shop.example/?ttclid=${id}&campaign_id=1&ad_id=2`), referrer: text(20) }, { requiredKeys: [] }),
    traits: fc.record({ email: fc.oneof(text(30), fc.constant('Jane@Example.com')), phone: fc.oneof(text(20), fc.constant('+44 20 7946 0958')) }, { requiredKeys: [] }),
    app: fc.constant({ name: 'Shop' }),
    device: fc.constant({ id: 'device-1' }),
  },
  { requiredKeys: [] },
);

const message = fc.record(
  {
    type: fc.constantFrom('track', 'identify', 'page', 'screen', 'group', 'alias'),
    messageId: fc.oneof(text(256).filter((id) => id !== ''), fc.uuid()),
    timestamp,
    userId: identifier,
    anonymousId: identifier,
    event: fc.oneof(fc.constantFrom('purchase', 'lead', 'signup', ' purchase '), text(200)),
    name: fc.oneof(text(200), fc.constant(null)),
    category: text(30),
    groupId: fc.oneof(text(40), fc.integer()),
    previousId: identifierText,
    properties,
    traits: fc.record({ email: text(40), phone: text(20), plan: jsonValue }, { requiredKeys: [] }),
    context,
  },
  { requiredKeys: ['type'] },
);

const accepted = message.filter((raw) => checkMessage(raw).ok);
const request = fc.record({ batch: fc.array(accepted, { minLength: 1, maxLength: 4 }), sentAt: fc.option(timestamp.filter((value) => timestampProblem(value) === undefined), { nil: undefined }) });

it('stores every batch of messages the rules accept, or refuses it with 400 naming a timestamp the sentAt correction moved out of range', async () => {
  await fc.assert(
    fc.asyncProperty(request, async (body) => {
      const response = await app.inject({ method: 'POST', url: '/v1/batch', payload: body, headers: { authorization: `Bearer ${key}` } });
      if (response.statusCode === 400) {
        // The only rule that depends on the request rather than the message: sentAt's correction.
        const { issues = [response.body] } = response.json() as { issues?: string[] };
        for (const issue of issues) expect(issue).toMatch(/^batch\[\d+\]\.timestamp .* after correcting for the sender's clock with sentAt/);
        return;
      }
      // A messageId the generator repeats is stored once and answered with a `duplicates` count.
      expect({ status: response.statusCode, success: (response.json() as { success?: unknown }).success, body: response.body }).toMatchObject({ status: 200, success: true });
    }),
    { numRuns: 200 },
  );
}, 300_000);

it('stores a visitor whose anonymous ID and click ID fill their byte limits with characters that do not compress', async () => {
  const distinctCjk = (count: number, seed: number) => Array.from({ length: count }, (_, i) => String.fromCharCode(0x4e00 + ((i * 7919 + seed) % 20_000))).join('');
  const anonymousId = distinctCjk(341, 1); // 1,023 bytes
  const page = { type: 'page', anonymousId, context: { ttclid: distinctCjk(1000, 3), page: { url: `https://shop.example/?ttclid=${distinctCjk(341, 2)}` } } };
  const response = await app.inject({ method: 'POST', url: '/v1/batch', payload: { batch: [page] }, headers: { authorization: `Bearer ${key}` } });
  expect(response.statusCode).toBe(200);
  // A 3,000-byte click ID is no click ID: the one in the page URL is taken instead.
  expect(await testDb.db('clicks').where({ workspace_id: shop.id, anonymous_id: anonymousId }).select('ttclid')).toEqual([{ ttclid: distinctCjk(341, 2) }]);
});


