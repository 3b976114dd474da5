import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { FAKE_TIKTOK_ACCESS_TOKEN, FAKE_TIKTOK_ADVERTISER_ID, FAKE_TIKTOK_PIXEL_CODE } from '../devstack/tiktok-fake';
import { describeInternalError } from '../activities/group/culprits';
import { deliverConversionGroup } from '../activities/group/deliver-group';
import { prepareConversionGroup, type GroupStepOptions } from '../activities/group/prepare-group';
import type { ConversionRow } from '../db/types';
import { CONVERSION_REASONS } from '../domain/reasons';
import { buildTestApp, type TestApp } from './helpers/test-app';
import { checkMessage } from '../sdk/src/rules/index.js';
import { clickId, context, message, properties, timestamp } from './helpers/message-arbitraries';
import { TestPipeline } from './helpers/pipeline';

/**
 * Property: whatever messages ingest accepts, every conversion they make ends delivered, skipped or failed with a
 * reason a person can read; none stays pending. Messages go through the real ingest route into a fresh workspace with
 * random settings, then the group steps run as the workflow runs them (claim, prepare, deliver, until nothing is
 * left) against the real database and the fake TikTok; a step that throws is run again the way its retries from the
 * third attempt on run, isolating the conversions it fails for.
 */
const APP_ID = '7301234567890123456';
const DAY = 86_400_000;

let pipeline: TestPipeline;
let subject: TestApp;
beforeAll(async () => {
  pipeline = await TestPipeline.start({ worker: false });
  await pipeline.fake.registerToken({ accessToken: FAKE_TIKTOK_ACCESS_TOKEN, pixelCodes: [FAKE_TIKTOK_PIXEL_CODE, APP_ID], advertiserIds: [FAKE_TIKTOK_ADVERTISER_ID] });
  subject = buildTestApp(pipeline.database.db);
});
afterAll(async () => {
  await subject.app.close();
  await pipeline.close();
});

/** A few visitors and users, so that purchases meet the clicks, emails and phones of earlier messages. */
const visitor = fc.constantFrom('visitor-a', 'visitor-b', 'visiteur-é🌿', '  visitor-a  ');
const user = fc.constantFrom('user-1', 'user-2', '42');
/** Mostly around now (inside and outside attribution windows, a little in the future), else any storable instant. */
const when = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: -40 * DAY, max: DAY }).map((ms) => new Date(Date.now() + ms).toISOString()) },
  { weight: 1, arbitrary: timestamp },
  { weight: 1, arbitrary: fc.constantFrom('9999-12-31T23:59:59Z', '9999-12-31T23:59:59.999Z', '0001-01-01T00:00:00Z', '1970-01-01T00:00:00Z') },
);
const landingUrl = clickId.map((id) => `https://shop.example/landing?ttclid=${id}`);

const conversionMessage = fc
  .record({
    base: message,
    type: fc.constantFrom('track', 'track', 'track', 'page', 'identify', 'screen'),
    event: fc.constantFrom('purchase', 'purchase', 'lead', 'Wishlist ✨', 'viewed'),
    anonymousId: fc.option(visitor, { nil: undefined }),
    userId: fc.option(user, { nil: undefined }),
    timestamp: fc.option(when, { nil: undefined }),
    properties: fc.tuple(properties, fc.option(landingUrl, { nil: undefined })).map(([props, url]) => (url === undefined ? props : { ...props, url })),
    context: fc.tuple(context, fc.constantFrom(undefined, { type: 'ios' }, { type: 'android' }), fc.option(fc.constantFrom('6D92078A-8246-4BA4-AE5B-76104861E7DC', '00000000-0000-0000-0000-000000000000'), { nil: undefined })).map(
      ([ctx, os, advertisingId]) => (os === undefined ? ctx : { ...ctx, app: { name: 'Shop' }, os: { name: os.type }, device: { type: os.type, advertisingId } }),
    ),
  })
  .map(({ base, ...chosen }) => JSON.parse(JSON.stringify({ ...base, ...chosen })) as Record<string, unknown>)
  .filter((raw) => checkMessage(raw).ok);

const settings = fc.record({
  attributionWindowDays: fc.constantFrom(1, 7, 28, 90),
  testMode: fc.boolean(),
  defaultPhoneRegion: fc.constantFrom('US', 'GB', 'DE', 'JP'),
  connected: fc.constantFrom(true, true, true, false),
  appId: fc.boolean(),
  matchWithoutClick: fc.boolean(),
});

const scenario = fc.record({
  settings,
  batches: fc.array(fc.record({ batch: fc.array(conversionMessage, { minLength: 1, maxLength: 6 }), sentAt: fc.option(when, { nil: undefined }) }), { minLength: 1, maxLength: 3 }),
});

type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

async function workspaceFor(setup: Scenario['settings']) {
  const ws = await pipeline.workspace({
    rules: [{ sourceEvent: 'purchase' }, { sourceEvent: 'lead', valueSource: 'fixed', fixedValue: 5, currency: 'EUR' }, { sourceEvent: 'Wishlist ✨', tiktokEvent: 'AddToWishlist' }],
    connected: setup.connected,
    settings: { attributionWindowDays: setup.attributionWindowDays, testMode: setup.testMode, testEventCode: setup.testMode ? 'TEST12345' : null, defaultPhoneRegion: setup.defaultPhoneRegion, matchWithoutClick: setup.matchWithoutClick },
  });
  if (setup.connected && setup.appId) await pipeline.repos.tiktokConnections.setAppId(ws.id, APP_ID);
  return ws;
}

/** What `POST /v1/batch` stores: the whole batch, or when it is refused (a sentAt correction out of range), each message alone. */
async function ingest(key: string, batches: Scenario['batches']): Promise<void> {
  const post = (payload: unknown) => subject.app.inject({ method: 'POST', url: '/v1/batch', payload: payload as Record<string, unknown>, headers: { authorization: `Bearer ${key}` } });
  for (const { batch, sentAt } of batches) {
    const whole = await post({ batch, sentAt });
    if (whole.statusCode === 200) continue;
    expect(whole.statusCode).toBe(400);
    for (const one of batch) expect([200, 400]).toContain((await post({ batch: [one] })).statusCode);
  }
}

/** A step as the workflow runs it: on a failure, again as its retries from the third attempt on run. */
async function asRetried<T>(step: (options: GroupStepOptions) => Promise<T>, failures: string[]): Promise<T> {
  try {
    return await step({ isolateCulprits: false });
  } catch (error) {
    failures.push(describeInternalError(error));
    return step({ isolateCulprits: true });
  }
}

/** Groups until nothing is left to claim, as the workspace's workflow runs them. */
async function runPipeline(workspaceId: string, failures: string[]): Promise<void> {
  const runId = `property-${randomBytes(4).toString('hex')}`;
  for (let group = 0; ; group += 1) {
    if (group === 10) throw new Error(`workspace ${workspaceId}: still claiming conversions after 10 groups`);
    const claim = { workspaceId, claimId: `${runId}:${group}`, runId };
    const prepared = await asRetried((options) => prepareConversionGroup(pipeline.deps, { ...claim, fill: false }, options), failures);
    if (prepared.claimed === 0) return;
    await asRetried((options) => deliverConversionGroup(pipeline.deps, claim, options), failures);
  }
}

const WITHOUT_CLICK = new Set(['no_ttclid', 'click_outside_attribution_window']);

function problemWith(c: ConversionRow, matchWithoutClick: boolean): string | undefined {
  const known = c.reason !== null && c.reason in CONVERSION_REASONS;
  if (c.status === 'pending') return 'is still pending';
  if (matchWithoutClick && c.reason !== null && WITHOUT_CLICK.has(c.reason)) return `was skipped ${c.reason} although the workspace matches without a click`;
  if (c.sent_without_click && (!matchWithoutClick || c.ttclid !== null || c.click_campaign_id !== null)) return 'was sent without a click that it has, or that its workspace does not allow';
  if (c.status === 'delivered' && c.reason !== null && c.reason !== 'test_mode') return `was delivered with reason ${c.reason}`;
  if ((c.status === 'skipped' || c.status === 'failed') && !known) return `ended ${c.status} with reason ${String(c.reason)}, which is not one people are told about`;
  return undefined;
}

it('ends every conversion delivered, skipped or failed with a known reason, whatever ingest accepted', async () => {
  const stepFailures: string[] = [];
  let conversions = 0;
  await fc.assert(
    fc.asyncProperty(scenario, async ({ settings: setup, batches }) => {
      const ws = await workspaceFor(setup);
      const { key } = await pipeline.repos.apiKeys.create(ws.id, 'backend');
      await ingest(key, batches);
      await runPipeline(ws.id, stepFailures);

      const rows: ConversionRow[] = await pipeline.database.db('conversions').where({ workspace_id: ws.id });
      conversions += rows.length;
      const problems = rows.flatMap((c) => {
        const problem = problemWith(c, setup.matchWithoutClick);
        return problem === undefined ? [] : [`conversion ${c.id} (${c.source_event} at ${c.event_time.toISOString()}) ${problem}`];
      });
      expect(problems).toEqual([]);
    }),
    { numRuns: 60 },
  );
  // The scenarios must reach the steps: a generator that made no conversions would prove nothing.
  expect(conversions).toBeGreaterThan(60);
  // A step failing on data ingest accepted is a bug, isolated but to be fixed: none is known.
  expect(stepFailures).toEqual([]);
}, 600_000);
