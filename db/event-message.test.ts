import { fullMessage, messageBody, type MessageColumns } from './event-message';

type Message = { messageId: string; type: string; event?: string; name?: string | null; userId?: string | null; anonymousId?: string | null } & Record<string, unknown>;

/** The columns ingest stores beside a message (record-batch.ts). */
const columnsOf = (m: Message): MessageColumns => ({
  message_id: m.messageId,
  type: m.type,
  event_name: m.event ?? m.name ?? null,
  user_id: m.userId ?? null,
  anonymous_id: m.anonymousId ?? null,
});

const stored = (m: Message) => ({ ...columnsOf(m), message: JSON.parse(messageBody(m)) as Record<string, unknown> });

const context = { ip: '203.0.113.9', page: { url: 'https://shop.example/?ttclid=E.C.P.1' } };
const messages: [string, Message][] = [
  ['a track with both identifiers', { messageId: 'm-1', type: 'track', event: 'purchase', userId: 'u-1', anonymousId: 'a-1', timestamp: '2026-11-28T10:00:00.000Z', properties: { order_id: 'o-1' }, context }],
  ['a page view with a name and no user', { messageId: 'm-2', type: 'page', name: 'Home', anonymousId: 'a-1', context }],
  ['a page view whose name and user are null', { messageId: 'm-3', type: 'page', name: null, userId: null, anonymousId: 'a-1' }],
  ['an identify (no name)', { messageId: 'm-4', type: 'identify', userId: 'u-1', traits: { email: 'x@shop.example' } }],
  ['an empty user ID', { messageId: 'm-5', type: 'track', event: 'signup', userId: '', anonymousId: 'a-2' }],
];

describe('a stored message', () => {
  it.each(messages)('%s reads back as it was received', (_, message) => {
    expect(fullMessage(stored(message))).toEqual(message);
  });

  it('holds none of the fields its columns hold, and keeps the others', () => {
    const body = stored(messages[0]![1]).message;
    expect(Object.keys(body).sort()).toEqual(['context', 'properties', 'timestamp']);
  });

  it('keeps a null name or user ID, which its column cannot tell from an absent one', () => {
    expect(stored(messages[2]![1]).message).toEqual({ name: null, userId: null });
  });

  it('stored whole, as before, reads the same', () => {
    const [, message] = messages[0]!;
    expect(fullMessage({ ...columnsOf(message), message })).toEqual(message);
  });

  it('once stripped, gives back what happened and when but not who', () => {
    const [, message] = messages[0]!;
    const skeleton = { ...columnsOf(message), message: { timestamp: message.timestamp }, stripped_at: new Date() };
    expect(fullMessage(skeleton)).toEqual({ messageId: 'm-1', type: 'track', event: 'purchase', timestamp: message.timestamp });
  });
});
