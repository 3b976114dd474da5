import { sha256Hex } from './hashing';
import { subjectNodes, withoutPersonalData } from './personal-data';

describe('subjectNodes', () => {
  it('names the graph nodes as ingest stores them: IDs trimmed, email and phone normalised and hashed', () => {
    expect(subjectNodes({ userId: ' u-1 ', anonymousId: 'a-1', email: ' Jo@Example.com', phone: '(415) 555-0100' }, 'US')).toEqual({
      nodes: [
        { kind: 'user_id', value: 'u-1' },
        { kind: 'anonymous_id', value: 'a-1' },
        { kind: 'email_sha256', value: sha256Hex('jo@example.com') },
        { kind: 'phone_sha256', value: sha256Hex('+14155550100') },
      ],
      unreadable: [],
    });
  });

  it('lists the fields that cannot name anyone: junk IDs, an email or phone that is none', () => {
    expect(subjectNodes({ userId: 'null', email: 'not-an-email', phone: '12' }, 'US')).toEqual({ nodes: [], unreadable: ['userId', 'email', 'phone'] });
  });
});

describe('withoutPersonalData', () => {
  it('keeps what the conversion was and was worth, drops who and where', () => {
    const sent = {
      event_source: 'web',
      event_source_id: 'CPIXEL',
      data: [
        {
          event: 'CompletePayment',
          event_time: 1_700_000_000,
          event_id: 'order-1',
          user: { email: sha256Hex('jo@example.com'), ttclid: 'E.C.P.x', ip: '203.0.113.9', user_agent: 'UA' },
          page: { url: 'https://shop.example/?ttclid=E.C.P.x&email=jo@example.com' },
          properties: { value: 46, currency: 'USD', order_id: 'order-1', search_string: 'jo smith address' },
        },
      ],
    };
    expect(withoutPersonalData(sent)).toEqual({
      event_source: 'web',
      event_source_id: 'CPIXEL',
      data: [{ event: 'CompletePayment', event_time: 1_700_000_000, event_id: 'order-1', properties: { value: 46, currency: 'USD', order_id: 'order-1' } }],
    });
  });
});
