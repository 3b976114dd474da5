import type { IdentityLink } from '../../domain/observation';
import { createKnownLinks } from './known-links';

const link = (user: string, anon: string): IdentityLink => ({ from: { kind: 'user_id', value: user }, to: { kind: 'anonymous_id', value: anon } });

describe('known identity links', () => {
  it('skips links committed lately in either direction, per workspace', () => {
    const known = createKnownLinks();
    known.remember('ws_1', [link('u-1', 'a-1')]);
    const reversed = { from: link('u-1', 'a-1').to, to: link('u-1', 'a-1').from };
    expect(known.unknown('ws_1', [link('u-1', 'a-1'), reversed, link('u-1', 'a-2')])).toEqual([link('u-1', 'a-2')]);
    expect(known.unknown('ws_2', [link('u-1', 'a-1')])).toEqual([link('u-1', 'a-1')]);
  });

  it('forgets them after their time, beyond its size (oldest first), and when cleared', () => {
    jest.useFakeTimers();
    try {
      const known = createKnownLinks({ maxEntries: 2, ttlMs: 1_000 });
      known.remember('ws_1', [link('u-1', 'a-1'), link('u-2', 'a-2'), link('u-3', 'a-3')]);
      expect(known.unknown('ws_1', [link('u-1', 'a-1'), link('u-2', 'a-2'), link('u-3', 'a-3')])).toEqual([link('u-1', 'a-1')]);
      jest.advanceTimersByTime(1_001);
      expect(known.unknown('ws_1', [link('u-3', 'a-3')])).toEqual([link('u-3', 'a-3')]);
      known.remember('ws_1', [link('u-4', 'a-4')]);
      known.clear();
      expect(known.unknown('ws_1', [link('u-4', 'a-4')])).toEqual([link('u-4', 'a-4')]);
    } finally {
      jest.useRealTimers();
    }
  });
});
