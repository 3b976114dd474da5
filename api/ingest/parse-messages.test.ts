import { parseBatch, parseSingle } from './parse-messages';

describe('parseBatch', () => {
  it('merges the batch context under each message context and reads sentAt', () => {
    const { messages, sentAt } = parseBatch({
      sentAt: '2026-01-31T12:00:00Z',
      context: { library: { name: 'analytics-node' }, ip: '203.0.113.9' },
      batch: [
        { type: 'track', event: 'signup', userId: 'u1', context: { ip: '198.51.100.1' } },
        { type: 'identify', userId: 'u1' },
      ],
    });
    expect(sentAt).toEqual(new Date('2026-01-31T12:00:00Z'));
    expect(messages.map((m) => m.context)).toEqual([
      { library: { name: 'analytics-node' }, ip: '198.51.100.1' },
      { library: { name: 'analytics-node' }, ip: '203.0.113.9' },
    ]);
  });

  it('names a missing batch and a bad sentAt', () => {
    expect(() => parseBatch({ sentAt: 'yesterday' })).toThrow(
      expect.objectContaining({
        statusCode: 400,
        issues: ['batch is required: an array of messages', 'sentAt must be an ISO-8601 timestamp with a time zone, e.g. 2026-01-31T12:00:00Z'],
      }),
    );
  });
});

describe('parseSingle', () => {
  it('names a bad sentAt next to the message problems', () => {
    expect(() => parseSingle({ sentAt: 5 }, 'page')).toThrow(
      expect.objectContaining({ issues: ['message needs a userId or an anonymousId', 'sentAt must be an ISO-8601 timestamp with a time zone, e.g. 2026-01-31T12:00:00Z'] }),
    );
  });
});
