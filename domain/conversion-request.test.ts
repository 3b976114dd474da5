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
    connection: { pixelCode: PIXEL, appId: null },
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
      connection: { pixelCode: PIXEL, appId: '7012345678901234567' },
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
