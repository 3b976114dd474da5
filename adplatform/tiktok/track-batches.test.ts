import { batchTrackRequests } from './track-batches';
import type { TikTokTrackRequest } from '../../domain/tiktok-wire';

const single = (id: string, envelope: Partial<TikTokTrackRequest> = {}): { item: string; request: TikTokTrackRequest } => ({
  item: id,
  request: { event_source: 'web', event_source_id: 'CPIXEL1', ...envelope, data: [{ event: 'CompletePayment', event_time: 1_700_000_000, event_id: id }] },
});

describe('batching events into event/track requests', () => {
  it('puts events of the same envelope into one request, in order', () => {
    const [batch, ...rest] = batchTrackRequests([single('a'), single('b'), single('c')]);
    expect(rest).toEqual([]);
    expect(batch?.items).toEqual(['a', 'b', 'c']);
    expect(batch?.body).toEqual({ event_source: 'web', event_source_id: 'CPIXEL1', data: ['a', 'b', 'c'].map((id) => single(id).request.data[0]) });
  });

  it('never mixes pixels or event sources in a request', () => {
    const batches = batchTrackRequests([single('a'), single('b', { event_source_id: 'CPIXEL2' }), single('c', { event_source: 'app', event_source_id: '7123' }), single('d')]);
    expect(batches.map((b) => [b.envelope.event_source, b.envelope.event_source_id, b.items])).toEqual([
      ['web', 'CPIXEL1', ['a', 'd']],
      ['web', 'CPIXEL2', ['b']],
      ['app', '7123', ['c']],
    ]);
  });

  it('sends test events one per request', () => {
    const batches = batchTrackRequests([single('a', { test_event_code: 'TEST1' }), single('b', { test_event_code: 'TEST1' })]);
    expect(batches.map((b) => [b.items, b.body.test_event_code, b.body.data.length])).toEqual([
      [['a'], 'TEST1', 1],
      [['b'], 'TEST1', 1],
    ]);
  });

  it('holds at most 1,000 events per request', () => {
    const batches = batchTrackRequests(Array.from({ length: 2_001 }, (_, i) => single(`e${i}`)));
    expect(batches.map((b) => b.body.data.length)).toEqual([1_000, 1_000, 1]);
    expect(batches[1]?.items[0]).toBe('e1000');
  });
});
