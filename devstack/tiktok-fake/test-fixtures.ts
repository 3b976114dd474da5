import { createHash } from 'node:crypto';
import { FAKE_TIKTOK_PIXEL_CODE } from './seed';

/** Sample `event/track` payloads for tests of the fake and of code that talks to it. */

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** The fake's clock at the start of a test of its 48-hour deduplication window. */
export const T0 = new Date('2026-01-10T09:00:00Z');
export const hoursAfterT0 = (hours: number) => new Date(T0.getTime() + hours * 60 * 60 * 1000);

/** 2023-10-20T06:23:28Z, the example time of §1.2. */
export const SAMPLE_EVENT_TIME = 1697783008;

export function sampleEvent(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    event: 'CompletePayment',
    event_time: SAMPLE_EVENT_TIME,
    event_id: 'ord_123',
    user: {
      email: sha256Hex('alice_abc@gmail.com'),
      phone: sha256Hex('+12133734253'),
      ttclid: 'E.C.P.CqgBrTJmZwA1',
      ttp: '2F7h37YkS1j57AYSKTI7IHhJPYH',
      ip: '203.0.113.9',
      user_agent: 'Mozilla/5.0',
    },
    page: { url: 'https://shop.example/checkout?ttclid=E.C.P.CqgBrTJmZwA1' },
    properties: {
      value: 46,
      currency: 'USD',
      content_type: 'product',
      contents: [{ content_id: '1077218', quantity: 2, price: 8 }],
    },
    ...overrides,
  };
}

export function sampleTrackBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { event_source: 'web', event_source_id: FAKE_TIKTOK_PIXEL_CODE, data: [sampleEvent()], ...overrides };
}
