import { untilDone } from './until-done';

describe('untilDone', () => {
  it('retries a failing step with doubling waits up to the cap, then returns its result', async () => {
    let attempts = 0;
    const waits: number[] = [];
    const failures: string[] = [];
    const result = await untilDone(
      async () => {
        attempts += 1;
        if (attempts < 5) throw new Error(`connect ECONNREFUSED (attempt ${attempts})`);
        return 'ready';
      },
      { onFailure: (error) => failures.push((error as Error).message), firstWaitMs: 10, maxWaitMs: 40, wait: async (ms) => waits.push(ms) },
    );
    expect(result).toBe('ready');
    expect(waits).toEqual([10, 20, 40, 40]);
    expect(failures).toEqual([1, 2, 3, 4].map((n) => `connect ECONNREFUSED (attempt ${n})`));
  });
});
