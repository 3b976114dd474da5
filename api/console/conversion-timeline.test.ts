import type { ConversionHistoryRow, ConversionRow } from '../../db/types';
import { conversionTimeline } from './conversion-timeline';

const at = new Date('2026-11-26T12:00:00Z');
const conversion = {
  message_id: 'order-7',
  source_event: 'purchase',
  tiktok_event: 'CompletePayment',
  created_at: at,
  received_at: at,
  workflow_id: 'pipeline-ws_1',
  workflow_started_at: null,
  ttclid: null,
  click_captured_at: null,
  click_anonymous_id: null,
  attempts: 0,
  tiktok_code: null,
  tiktok_message: null,
  status: 'failed',
  reason: 'internal_error',
  completed_at: at,
} satisfies Partial<ConversionRow> & { received_at: Date };

const step = (name: ConversionHistoryRow['step'], detail: Record<string, unknown>): ConversionHistoryRow => ({ id: '1', conversion_id: 'c', at, step: name, detail });
const nameOf = (actor: string) => (actor === 'user:usr_1' ? 'jo@fern.example' : actor);

describe('a conversion’s timeline in words', () => {
  it('tells each step in a sentence and keeps its codes and IDs as labelled details', () => {
    const timeline = conversionTimeline(conversion, [
      step('identity_resolved', { linkedVisitors: 2, clickAnonymousId: 'phone-1', clickCapturedAt: '2026-11-25T10:00:00.000Z' }),
      step('window_checked', { eligible: true }),
      step('delivery_attempt', { attempt: 2, deliveryRequestId: '9', requestId: 'R-1', code: 40001, message: 'pixel not found', httpStatus: 200, eventsInRequest: 3 }),
      step('outcome', { status: 'failed', reason: 'internal_error', step: 'deliver', message: 'boom' }),
      step('retry_requested', { by: 'user:usr_1' }),
    ], nameOf);
    expect(timeline.map((entry) => entry.summary)).toEqual([
      'Your event `purchase` arrived',
      'Found the TikTok ad click, made on visitor `phone-1`',
      'Checked the attribution window: it can be sent',
      'Sent to TikTok (attempt 2): refused by TikTok: `pixel not found`',
      'Failed: Signalbox failed on it',
      'Sent again at the request of jo@fern.example',
    ]);
    expect(timeline[3]?.details).toContainEqual({ label: "TikTok's request ID", value: 'R-1' });
    expect(timeline[4]?.details).toEqual([
      { label: 'Status', value: 'failed' },
      { label: 'Reason', value: 'Signalbox failed on it (`internal_error`)' },
      { label: 'Step that failed', value: 'deliver' },
      { label: 'Message', value: 'boom' },
    ]);
    expect(JSON.stringify(timeline)).not.toContain('usr_1');
  });

  it('says where the click was found: on the event itself, with or without a visitor, or on a visitor found through the person', () => {
    const found = (detail: Record<string, unknown>) => conversionTimeline(conversion, [step('identity_resolved', { linkedVisitors: 2, clickCapturedAt: '2026-11-25T10:00:00.000Z', ...detail })], nameOf)[1];
    expect(found({ clickSource: 'message' })?.summary).toBe('Found the TikTok ad click on this event itself');
    expect(found({ clickSource: 'message' })?.details).toContainEqual({ label: 'Click found on', value: 'this event itself' });
    expect(found({ clickSource: 'message', clickAnonymousId: 'cart-1' })?.summary).toBe('Found the TikTok ad click on this event itself, made on visitor `cart-1`');
    expect(found({ clickSource: 'visitor', clickAnonymousId: 'phone-1' })?.summary).toBe('Found the TikTok ad click, made on visitor `phone-1`');
    expect(found({ clickSource: 'visitor', clickAnonymousId: 'phone-1' })?.details).toContainEqual({ label: 'Click found on', value: "a visitor's profile" });
  });

  it('tells the story from the conversion itself when no step was recorded', () => {
    expect(conversionTimeline(conversion, [], nameOf).map((entry) => entry.summary)).toEqual(['Your event `purchase` arrived', 'Became a conversion: `purchase` → CompletePayment', 'Failed: Signalbox failed on it']);
  });
});
