import { randomUUID } from 'node:crypto';
import { messageBody } from '../../db/event-message';

/** The same events for every run: product views from a pool of known visitors, ~700 bytes of JSON each. */
export interface BenchEvent {
  type: 'track';
  event: string;
  messageId: string;
  timestamp: string;
  userId: string;
  anonymousId: string;
  properties: Record<string, unknown>;
  context: Record<string, unknown>;
}

const VISITORS = 5_000;
const PRODUCTS = ['mug', 'plate', 'bowl', 'vase', 'lamp', 'towel', 'candle', 'rug'];

export function benchEvents(count: number, start = Date.now()): BenchEvent[] {
  return Array.from({ length: count }, (_, i) => {
    const visitor = (i * 7919) % VISITORS;
    const product = PRODUCTS[i % PRODUCTS.length] as string;
    return {
      type: 'track',
      event: 'product_viewed',
      messageId: randomUUID(),
      timestamp: new Date(start - (count - i) * 10).toISOString(),
      userId: `user-${visitor}`,
      anonymousId: `anon-${visitor.toString(16).padStart(8, '0')}-4d2c-9a1b-7f3e2c1d0b9a`,
      properties: { product_id: `sku-${1000 + (i % 500)}`, name: `Ceramic ${product}`, category: 'kitchen', price: 12.5 + (i % 40), currency: 'USD', quantity: 1 + (i % 3) },
      context: {
        ip: `203.0.113.${visitor % 250}`,
        userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
        locale: 'en-US',
        page: { url: `https://shop.example/products/sku-${1000 + (i % 500)}?utm_source=tiktok`, referrer: 'https://www.tiktok.com/' },
        traits: { email: `shopper${visitor}@example.com` },
      },
    };
  });
}

function csvField(value: string | null): string {
  return value === null ? '' : `"${value.replace(/"/g, '""')}"`;
}

/** The `events` row ingest stores for an event (its message without the fields its columns hold), as a CSV line for COPY. */
export function eventCsvLine(workspaceId: string, event: BenchEvent): string {
  return [workspaceId, event.messageId, event.type, event.event, event.userId, event.anonymousId, event.timestamp, event.timestamp, event.timestamp.slice(0, 10), messageBody(event)].map(csvField).join(',') + '\n';
}

/** Received when it occurred: a store loaded over past days holds each day's events under that day (and its partition). */
export const EVENT_COPY_COLUMNS = '(workspace_id, message_id, type, event_name, user_id, anonymous_id, occurred_at, received_at, received_on, message)';

export function chunk<T>(items: readonly T[], size: number): T[][] {
  return Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));
}
