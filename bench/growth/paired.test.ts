import { pairedShare, pairedShares, parseBatchRounds } from './paired';

describe('the growth benchmark, rounds paired with an empty store', () => {
  it('gives each round against its pair', () => {
    expect(pairedShares([90, 110], [100, 100])).toEqual([0.9, 1.1]);
    expect(() => pairedShares([90, 110], [100])).toThrow('paired rounds: 2 on the grown store against 1 on the empty store');
  });

  it('cancels the slowdown of a store right after the other when both stores suffer it alike', () => {
    const after = 0.8; // each store's rate right after the other's round
    // Rounds in order E G | G E | E G | G E: the grown store follows the empty one in odd pairs, the empty one the grown in even.
    const grown = [90 * after, 90, 90 * after, 90];
    const empty = [100, 100 * after, 100, 100 * after];
    expect(pairedShare(grown, empty)).toBeCloseTo(0.9, 10);
    const shares = pairedShares(grown, empty);
    expect([...shares].sort((a, b) => a - b)[shares.length / 2]).toBeCloseTo(1.125, 10); // a median would not
  });

  it('takes an even number of rounds only', () => {
    expect(parseBatchRounds('6')).toBe(6);
    for (const text of ['5', '0', 'six', '-2']) expect(() => parseBatchRounds(text)).toThrow(`BENCH_GROWTH_BATCH_ROUNDS must be an even whole number of at least 2 (the pairs of rounds alternate which store goes first): got "${text}"`);
  });
});
