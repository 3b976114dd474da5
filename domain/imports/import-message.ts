import { sha256Hex } from '../hashing';
import type { ImportKind, ImportRow } from './import-rows';

/** The Segment track message one row of a file becomes, before the ingest API's message rules check it. */
export interface ImportMessage {
  type: 'track';
  messageId: string;
  event: string;
  timestamp: string;
  userId?: string;
  anonymousId?: string;
  properties: Record<string, unknown>;
  context: Record<string, unknown>;
}

/** Derived from the kind and the row key only, so importing a row again is the same message (stored once). */
export function importMessageId(kind: ImportKind, rowKey: string): string {
  return `import-${sha256Hex(`${kind}\n${rowKey}`).slice(0, 32)}`;
}

const present = (entries: Record<string, unknown>) => Object.fromEntries(Object.entries(entries).filter(([, value]) => value !== undefined));

/**
 * The row as a track message: its time, `occurred_at`; email, phone and external ID as `context.traits`, where TikTok's
 * match keys are read; a sale marked `context.channel: "offline"` (a rule sending `auto` sends it to the Offline Event
 * Set); a lead stage's lead in `properties.lead_id` and `lead_event_source` (a CRM event's lead). Its event_id comes
 * from the row, so TikTok, and Signalbox's conversions, count it once however often it is imported: a sale's order_id
 * (shared with a pixel or a webhook that sent the same order), a lead stage's `<lead_id>:<stage>`, else the message ID.
 * Without user_id the message's anonymous ID is its message ID, as a webhook's is.
 */
export function importMessage(kind: ImportKind, row: ImportRow): ImportMessage {
  const { text } = row;
  const messageId = importMessageId(kind, row.rowKey);
  const sale = kind === 'offline_sales';
  const eventId = sale ? text.order_id : `${text.lead_id}:${row.event}`;
  return {
    type: 'track',
    messageId,
    event: row.event,
    timestamp: row.occurredAt,
    ...(text.user_id === undefined ? { anonymousId: messageId } : { userId: text.user_id }),
    properties: present({
      ...(sale ? { order_id: text.order_id, store: text.store } : { lead_id: text.lead_id, lead_event_source: text.lead_event_source }),
      value: row.value,
      currency: text.currency?.toUpperCase(),
      event_id: eventId,
    }),
    context: present({
      traits: text.email === undefined && text.phone === undefined && text.external_id === undefined ? undefined : present({ email: text.email, phone: text.phone, external_id: text.external_id }),
      channel: sale ? 'offline' : undefined,
      import: { kind, row_key: row.rowKey },
    }),
  };
}
