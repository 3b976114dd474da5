/**
 * A message a webhook became, before the ingest API's message rules (`sdk/src/rules`) check it like any other: the
 * same fields as a Segment message, of the two types a webhook can be.
 */
export interface WebhookMessage {
  type: 'track' | 'identify';
  event?: string;
  /** Absent: ingest derives one from the message's content, so a retried delivery is still stored once. */
  messageId?: string;
  timestamp?: string;
  userId?: string;
  anonymousId?: string;
  properties?: Record<string, unknown>;
  traits?: Record<string, unknown>;
  context: Record<string, unknown>;
}

/** Where a message came from, kept in `context.source` for the event debugger. */
export interface SourceNote {
  id: string;
  type: 'shopify' | 'webhook';
  topic?: string;
  /** A Shopify resource's click: from the tag's cart attribute, or from the landing page Shopify kept with the order. */
  click?: 'cart' | 'landing_page';
}
