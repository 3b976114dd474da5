import { ago, setupSteps, type SetupFacts } from './setup-steps';

const now = new Date('2026-11-26T12:00:00Z');
const hoursAgo = (hours: number) => new Date(now.getTime() - hours * 3_600_000);
const empty: SetupFacts = { now, allowedOrigins: [], browserKeyUse: undefined, lastEventAt: undefined, connection: undefined, rules: 0, firstDelivered: undefined, matchRate: { delivered: 0, matched: 0 } };
const ready: SetupFacts = {
  now,
  allowedOrigins: ['https://fern.example'],
  browserKeyUse: { keyName: 'web', origin: 'https://fern.example', at: hoursAgo(0.5) },
  lastEventAt: hoursAgo(2),
  connection: { status: 'active', pixelCode: 'CPIXEL01', pixelName: 'Fern web pixel' },
  rules: 2,
  firstDelivered: { eventTime: hoursAgo(72), tiktokEvent: 'CompletePayment' },
  matchRate: { delivered: 10, matched: 6 },
};
const stepOf = (facts: SetupFacts, key: string) => setupSteps(facts).find((s) => s.key === key);

describe('the setup checklist', () => {
  it('is all open on a new workspace, each step saying what is missing and where it is done', () => {
    expect(setupSteps(empty).map((s) => [s.key, s.done, s.link.path])).toEqual([
      ['tracking_script', false, 'sources#install'],
      ['events', false, 'debugger'],
      ['tiktok', false, 'sources#tiktok'],
      ['pixel', false, 'sources#tiktok'],
      ['rule', false, 'rules'],
      ['first_delivery', false, 'conversions'],
      ['match_rate', false, 'overview#match-quality'],
    ]);
    expect(stepOf(empty, 'tiktok')?.explanation).toBe('TikTok is not connected: connect it and grant the three permissions Signalbox asks for.');
    expect(stepOf(empty, 'match_rate')?.explanation).toBe('No conversion was delivered in the last 7 days, so there is no match rate yet.');
  });

  it('is all done on a workspace set up and sending, each step saying what it saw', () => {
    expect(setupSteps(ready).every((s) => s.done)).toBe(true);
    expect(stepOf(ready, 'tracking_script')?.explanation).toBe('The tag with the browser key “web” sent events from https://fern.example 30 minutes ago.');
    expect(stepOf(ready, 'first_delivery')?.explanation).toBe('The first, a CompletePayment, reached TikTok 3 days ago.');
    expect(stepOf(ready, 'rule')?.explanation).toBe('2 rules turn your events into TikTok conversions.');
    expect(stepOf(ready, 'match_rate')?.explanation).toBe('60% of the conversions delivered in the last 7 days carried a click ID, email or phone.');
  });

  it('counts the tag only from an origin still allowed', () => {
    const moved = stepOf({ ...ready, allowedOrigins: ['https://www.fern.example'] }, 'tracking_script');
    expect(moved).toMatchObject({ done: false, explanation: expect.stringContaining('https://fern.example, which is no longer an allowed origin') });
    expect(stepOf({ ...ready, browserKeyUse: undefined }, 'tracking_script')).toMatchObject({ done: false, explanation: expect.stringContaining('No page of https://fern.example has sent events') });
  });

  it('wants an event within 24 hours, an active connection with a pixel, and a match rate of 60%', () => {
    expect(stepOf({ ...ready, lastEventAt: hoursAgo(24) }, 'events')?.done).toBe(true);
    expect(stepOf({ ...ready, lastEventAt: hoursAgo(25) }, 'events')).toMatchObject({ done: false, explanation: expect.stringContaining('25 hours ago, none in the last 24 hours') });
    expect(stepOf({ ...ready, connection: { status: 'reauthorization_required', pixelCode: 'CPIXEL01', pixelName: null } }, 'tiktok')).toMatchObject({ done: false, explanation: expect.stringContaining('connect TikTok again') });
    expect(stepOf({ ...ready, connection: { status: 'active', pixelCode: null, pixelName: null } }, 'pixel')?.done).toBe(false);
    expect(stepOf(ready, 'pixel')?.explanation).toBe('Conversions go to the pixel “Fern web pixel”.');
    expect(stepOf({ ...ready, connection: { status: 'active', pixelCode: 'CPIXEL01', pixelName: null } }, 'pixel')?.explanation).toBe('Conversions go to the pixel CPIXEL01.');
    expect(stepOf({ ...ready, matchRate: { delivered: 10, matched: 5 } }, 'match_rate')).toMatchObject({ done: false, explanation: expect.stringMatching(/^Only 50% .*email or phone with each conversion\.$/) });
  });
});

describe('ago', () => {
  it('says how long ago in minutes, hours or days', () => {
    expect([0.2 / 60, 1 / 60, 0.75, 1, 47, 48, 24 * 9].map((h) => ago(now, hoursAgo(h)))).toEqual(['just now', '1 minute ago', '45 minutes ago', '1 hour ago', '47 hours ago', '2 days ago', '9 days ago']);
  });
});
