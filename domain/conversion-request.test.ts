import { buildConversionRequest, type ConversionRequestInput } from './conversion-request';
import { sha256Hex } from './hashing';
import type { TrackedMessage } from './message';

const PIXEL = 'CSIGNALBOXDEVPIXEL01';

function input(message: Partial<TrackedMessage>): ConversionRequestInput {
  return {
    message: { type: 'track', event: 'Order Completed', messageId: 'm-1', timestamp: '2026-03-20T12:00:00Z', ...message },
    conversion: {
      tiktokEvent: 'CompletePayment',
      eventId: 'o-1',
      eventTime: new Date('2026-03-20T12:00:00Z'),
      value: 20,
      currency: 'USD',
      eventSource: 'web',
      click: { ttclid: 'E.C.P.x', anonymousId: 'a-1', source: 'visitor' },
      ttp: null,
    },
    workspace: { testMode: false, testEventCode: null, defaultPhoneRegion: 'US', attributionWindowDays: 30 },
    connection: { pixelCode: PIXEL, appId: null, offlineEventSetId: null, crmEventSetId: null },
    linked: { emails: [], phones: [] },
    visitors: [],
  };
}

/** The `user` and `properties` of the one event the request carries. */
function sent(message: Partial<TrackedMessage>) {
  const built = buildConversionRequest(input(message));
  if (!built.ready) throw new Error(`not ready: ${built.reason}`);
  const [event] = built.payload.data;
  return { user: event?.user ?? {}, properties: event?.properties ?? {} };
}

describe('buildConversionRequest: several values for one key', () => {
  it('sends every valid email of an array, normalised and deduplicated, and drops the junk', () => {
    const { user } = sent({ userId: 'u-1', traits: { email: ['Jo@Example.com ', 'jo@example.com', 'not-an-email', 'ann@example.com'] } });
    expect(user.email).toEqual([sha256Hex('jo@example.com'), sha256Hex('ann@example.com')]);
  });

  it('sends only the valid phones of an array, each in E.164', () => {
    const { user } = sent({ userId: 'u-1', context: { traits: { phone: ['(213) 373-4253', '12', '+44 20 7946 0018', '+1 213 373 4253'] } } });
    expect(user.phone).toEqual([sha256Hex('+12133734253'), sha256Hex('+442079460018')]);
  });

  it('sends the user ID and the external IDs the sender lists, the user ID first, one value as a string', () => {
    expect(sent({ userId: 'u-1', traits: { external_id: ['crm-9', 'u-1', sha256Hex('loyalty-3')] } }).user.external_id).toEqual([
      sha256Hex('u-1'),
      sha256Hex('crm-9'),
      sha256Hex('loyalty-3'),
    ]);
    expect(sent({ userId: 'u-1' }).user.external_id).toBe(sha256Hex('u-1'));
    expect(sent({ anonymousId: 'a-1', properties: { externalId: 42 } }).user.external_id).toBe(sha256Hex('42'));
  });

  it('never forwards external IDs as custom properties', () => {
    const built = buildConversionRequest({ ...input({ userId: 'u-1', properties: { external_id: 'crm-9', plan: 'pro' } }), conversion: { ...input({}).conversion, tiktokEvent: 'Plan Chosen' } });
    expect(built.ready && built.payload.data[0]?.properties).toEqual({ plan: 'pro', value: 20, currency: 'USD' });
  });
});

describe('buildConversionRequest: Limited Data Use', () => {
  const event = (limitedDataUse: boolean, eventSource: 'web' | 'app') => {
    const base = input({ userId: 'u-1' });
    const built = buildConversionRequest({
      ...base,
      conversion: { ...base.conversion, eventSource },
      workspace: { ...base.workspace, limitedDataUse },
      connection: { pixelCode: PIXEL, appId: '7012345678901234567', offlineEventSetId: null, crmEventSetId: null },
    });
    if (!built.ready) throw new Error(`not ready: ${built.reason}`);
    return built.payload.data[0];
  };

  it('flags web and app events when the workspace asks, and leaves the field out otherwise', () => {
    expect(event(true, 'web')).toHaveProperty('limited_data_use', true);
    expect(event(true, 'app')).toHaveProperty('limited_data_use', true);
    expect(event(false, 'web')).not.toHaveProperty('limited_data_use');
  });
});

describe('buildConversionRequest: offline and CRM events', () => {
  const OFFLINE_SET = '7391846250173950001';
  const CRM_SET = '7391846250173960001';
  const sets: ConversionRequestInput['connection'] = { pixelCode: PIXEL, appId: null, offlineEventSetId: OFFLINE_SET, crmEventSetId: CRM_SET };
  const build = (eventSource: 'offline' | 'crm', message: Partial<TrackedMessage>, connection = sets, tiktokEvent = eventSource === 'crm' ? 'Lead Qualified' : 'CompletePayment') => {
    const base = input(message);
    return buildConversionRequest({
      ...base,
      conversion: { ...base.conversion, eventSource, tiktokEvent },
      connection,
      visitors: [{ anonymousId: 'a-1', ttp: 'ttp-visitor', ip: '203.0.113.9', userAgent: 'Mozilla/5.0', pageUrl: 'https://shop.example/', deviceSeenAt: new Date('2026-03-20T11:00:00Z') }],
    });
  };
  const storeSale = { userId: 'cust-7', traits: { email: 'Jo@Example.com', phone: '+1 213 373 4253' }, context: { channel: 'offline', ip: '198.51.100.4', userAgent: 'POS/1.0', ttclid: 'E.C.P.own', page: { url: 'https://shop.example/pos' } } };

  it("sends an offline event under the Offline Event Set with the person's hashed keys only: no page, click, cookie or device", () => {
    const built = build('offline', storeSale);
    if (!built.ready) throw new Error(`not ready: ${built.reason}`);
    expect(built.payload).toMatchObject({ event_source: 'offline', event_source_id: OFFLINE_SET });
    const [event] = built.payload.data;
    expect(event).toMatchObject({ event: 'CompletePayment', event_id: 'o-1' });
    expect(event).not.toHaveProperty('page');
    expect(event?.user).toEqual({ email: sha256Hex('jo@example.com'), phone: sha256Hex('+12133734253'), external_id: sha256Hex('cust-7') });
    expect(Object.keys(built.matchKeys).sort()).toEqual(['email', 'external_id', 'phone']);
  });

  it("sends a CRM event under the CRM Event Set with its lead, the CRM's name only when given", () => {
    const withSource = build('crm', { userId: 'cust-7', properties: { lead_id: 'hs-123', lead_event_source: 'HubSpot' } });
    expect(withSource.ready && withSource.payload).toMatchObject({ event_source: 'crm', event_source_id: CRM_SET, data: [{ event: 'Lead Qualified', event_id: 'o-1', lead: { lead_id: 'hs-123', lead_event_source: 'HubSpot' } }] });
    const withoutSource = build('crm', { userId: 'cust-7', properties: { lead_id: 991 } });
    expect(withoutSource.ready && withoutSource.payload.data[0]?.lead).toEqual({ lead_id: '991' });
  });

  it('stops a CRM event without a lead ID, and one of either kind with no email, phone or external ID', () => {
    expect(build('crm', { userId: 'cust-7', properties: { lead_id: ' ' } })).toEqual({ ready: false, reason: 'lead_id_missing' });
    expect(build('offline', { anonymousId: 'a-1', context: { channel: 'offline' } })).toEqual({ ready: false, reason: 'no_person_keys' });
    expect(build('crm', { anonymousId: 'a-1', properties: { lead_id: 'hs-1' } })).toEqual({ ready: false, reason: 'no_person_keys' });
  });

  it('stops each when the connection has no event set of its kind', () => {
    expect(build('offline', storeSale, { ...sets!, offlineEventSetId: null })).toEqual({ ready: false, reason: 'offline_events_not_configured' });
    expect(build('crm', { userId: 'u', properties: { lead_id: 'x' } }, { ...sets!, crmEventSetId: null })).toEqual({ ready: false, reason: 'crm_events_not_configured' });
  });
});
