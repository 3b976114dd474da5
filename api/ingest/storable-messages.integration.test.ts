import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import type { Workspace } from '../../db/repositories/workspaces';
import { checkMessage, timestampProblem } from '../../sdk/src/rules/index.js';
import { createTestDatabase, type TestDatabase } from '../../test/helpers/database';
import { message, timestamp } from '../../test/helpers/message-arbitraries';
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


