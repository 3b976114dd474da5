import { deriveEventId } from './event-id';
import type { TrackedMessage } from './message';

const message = (properties: Record<string, unknown>, messageId = 'msg-1'): TrackedMessage => ({
  type: 'track',
  event: 'purchase',
  messageId,
  timestamp: '2026-01-01T00:00:00Z',
  properties,
});

describe('deriveEventId', () => {
  it("takes the pixel's event_id when the event carries one", () => {
    expect(deriveEventId(message({ event_id: 'px-42', order_id: 'o-1' }), true)).toBe('px-42');
  });

  it('takes the camelCase eventId when event_id is absent or junk, before the order_id', () => {
    expect(deriveEventId(message({ eventId: 'px-7', order_id: 'o-1' }), true)).toBe('px-7');
    expect(deriveEventId(message({ event_id: 'null', eventId: 'px-7' }), false)).toBe('px-7');
    expect(deriveEventId(message({ event_id: 'px-42', eventId: 'px-7' }), true)).toBe('px-42');
  });

  it('derives a purchase from its order_id, so two messages for one order are one conversion', () => {
    expect(deriveEventId(message({ order_id: 1001 }, 'a'), true)).toBe('1001');
    expect(deriveEventId(message({ order_id: 1001 }, 'b'), true)).toBe('1001');
  });

  it('uses the messageId otherwise, never a random value', () => {
    expect(deriveEventId(message({ order_id: 'o-1' }, 'msg-9'), false)).toBe('msg-9');
    expect(deriveEventId(message({ event_id: 'null' }, 'msg-9'), true)).toBe('msg-9');
  });
});
