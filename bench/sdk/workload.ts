/** The same track call for every client: a purchase with a few properties, spread over 5,000 users. */
export interface BenchEvent {
  userId: string;
  event: string;
  properties: { order_id: string; revenue: number; currency: string; product_id: string };
}

export function benchEvent(index: number): BenchEvent {
  return {
    userId: `user-${index % 5_000}`,
    event: 'Order Completed',
    properties: { order_id: `order-${index}`, revenue: 49.9, currency: 'EUR', product_id: `sku-${index % 200}` },
  };
}

/** Batching settings given to every client: flushAt 20, and a queue limit that drops nothing. */
export const FLUSH_AT = 20;
