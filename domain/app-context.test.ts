import { hasAdvertisingId, readAppContext } from './app-context';
import type { TrackedMessage } from './message';

const message = (context: Record<string, unknown>): TrackedMessage => ({
  type: 'track',
  event: 'purchase',
  messageId: 'm1',
  timestamp: '2026-01-01T00:00:00Z',
  userId: 'u1',
  context,
});

describe('readAppContext', () => {
  it("reads an iOS app's IDFA (upper-case), IDFV and tracking consent as Segment's iOS library sends them", () => {
    const app = readAppContext(
      message({
        app: { name: 'Shop', version: '4.2.0', build: '420' },
        device: { type: 'ios', id: 'IDFV-1', advertisingId: '6d92078a-8246-4ba4-ae5b-76104861e7dc', adTrackingEnabled: true },
      }),
    );
    expect(app).toEqual({
      name: 'Shop',
      version: '4.2.0',
      device: { idfa: '6D92078A-8246-4BA4-AE5B-76104861E7DC', idfv: 'IDFV-1', att_status: 'AUTHORIZED' },
    });
    expect(hasAdvertisingId(app)).toBe(true);
  });

  it('sends no IDFA when tracking is not authorized or the ID is all zeros', () => {
    const denied = readAppContext(message({ app: { name: 'Shop' }, device: { type: 'ios', advertisingId: '6d92078a-8246-4ba4-ae5b-76104861e7dc', adTrackingEnabled: false } }));
    const zeros = readAppContext(message({ app: { name: 'Shop' }, os: { name: 'iOS' }, device: { advertisingId: '00000000-0000-0000-0000-000000000000' } }));
    expect(denied.device).toEqual({ att_status: 'DENIED' });
    expect(zeros.device).toEqual({});
    expect(hasAdvertisingId(zeros)).toBe(false);
  });

  it("reads an Android app's GAID (lower-case)", () => {
    const app = readAppContext(message({ app: { name: 'Shop', build: '77' }, os: { name: 'Android' }, device: { advertisingId: 'CDDA802E-FB9C-47AD-9866-0794D394C912' } }));
    expect(app).toEqual({ name: 'Shop', version: '77', device: { gaid: 'cdda802e-fb9c-47ad-9866-0794d394c912', att_status: 'NOT_APPLICABLE' } });
  });
});
